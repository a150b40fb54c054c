// A module of the service package, bundled from its TypeScript sources into a file a child
// process can run, outside the checkout's tracked files: tests that kill or spawn processes
// need a real file, not vitest's transformed module.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Bundles `entry` (a path from the checkout's root) into a directory of its own under the
 * service package's node_modules, so PGlite and pg resolve from the service's dependencies.
 * The PGlite worker thread is a file of its own, loaded from beside the module that starts it,
 * so it is copied there too. `dispose` removes the directory.
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
  const file = join(dir, `${name}.mjs`);
  copyFileSync(
    join(root, 'packages/service/src/store/pglite-worker.js'),
    join(dir, 'pglite-worker.js'),
  );
  await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: file,
    external: ['@electric-sql/pglite', 'pg'],
    alias: {
      '@listkit/query/sql': join(root, 'packages/query/src/sql/index.ts'),
      '@listkit/query': join(root, 'packages/query/src/index.ts'),
    },
    logLevel: 'silent',
  });
  return { file, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
