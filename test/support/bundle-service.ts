// Programs bundled from the TypeScript sources into files a child process can run, outside the
// checkout's tracked files: tests that kill or spawn processes need a real file, not vitest's
// transformed module. One place says how `@listkit/*` resolves to the sources.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Every `@listkit/*` entry, by its source file (subpaths before their package). */
const SOURCE_ALIASES = {
  '@listkit/query/sql': join(root, 'packages/query/src/sql.ts'),
  '@listkit/query/kysely': join(root, 'packages/query/src/kysely.ts'),
  '@listkit/query/drizzle': join(root, 'packages/query/src/drizzle.ts'),
  '@listkit/query/typeorm': join(root, 'packages/query/src/typeorm.ts'),
  '@listkit/query/proto': join(root, 'packages/query/src/proto.ts'),
  '@listkit/query/list-method': join(root, 'packages/query/src/list-method.ts'),
  '@listkit/query/re2-wasm': join(root, 'packages/query/src/re2-wasm.ts'),
  '@listkit/query': join(root, 'packages/query/src/index.ts'),
  '@listkit/service/schema': join(root, 'packages/service/src/schema.ts'),
  '@listkit/service/serve': join(root, 'packages/service/src/serve-command.ts'),
  '@listkit/service': join(root, 'packages/service/src/index.ts'),
};

/**
 * Bundles the program `entry` (an absolute path) for Node into `outfile` (an ES module, or a
 * CommonJS script), `@listkit/*` from the sources. PGlite (which loads its WebAssembly from beside its own files), pg (optional
 * native parts) and better-sqlite3 (a native addon) stay external and resolve at run time through the node_modules above `outfile`,
 * as do the packages in `external` (NestJS, which requires its optional packages only when used).
 */
export async function bundleFromSources(
  entry: string,
  outfile: string,
  format: 'esm' | 'cjs' = 'esm',
  external: string[] = [],
): Promise<void> {
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format,
    target: 'node20',
    outfile,
    external: [
      '@electric-sql/pglite',
      'pg',
      'better-sqlite3',
      'typeorm',
      'drizzle-orm',
      'drizzle-orm/*',
      ...external,
    ],
    // CommonJS dependencies (commander, protobufjs) require Node's built-ins.
    banner:
      format === 'esm'
        ? {
            js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
          }
        : {},
    alias: SOURCE_ALIASES,
    logLevel: 'silent',
  });
}

/**
 * Bundles `entry` (a path from the checkout's root) into a directory of its own under the
 * service package's node_modules, so PGlite and pg resolve from the service's dependencies.
 * The PGlite worker thread and the process that creates a database are files of their own, loaded
 * from beside the module that starts them, so they are copied there too. `dispose` removes the directory.
 */
export async function bundleServiceModule(
  entry: string,
): Promise<{ file: string; dispose: () => void }> {
  const name = entry.split('/').pop()?.replace(/\.ts$/, '') ?? 'module';
  const dir = join(
    root,
    `packages/service/node_modules/.cache/listkit-tests/${name}-${process.pid}-${Date.now()}`,
  );
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.js`);
  for (const started of ['pglite-worker.js', 'pglite-create.js']) {
    copyFileSync(join(root, 'packages/service/src/db', started), join(dir, started));
  }
  await bundleFromSources(join(root, entry), file);
  return { file, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
