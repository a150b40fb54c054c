// Two outputs. dist/cli.cjs: the whole program (cli.ts) as one CommonJS script with its
// dependencies, so that V8's code cache can hold it (Node 20 caches no ES modules, see
// compile-cache.ts); `listkit conform` and the SQL planner inside it run their module code only
// when used. dist/bin.js: the ES module the bin imports, which runs that script from the cache
// and loads the emulator (`@listkit/service/serve`, with PGlite's WebAssembly beside its own
// files) only for `listkit serve`. `pnpm build` empties dist/ first.
import { readFileSync, rmSync } from 'node:fs';
import { defineConfig } from 'tsup';

/**
 * A script run by `vm.Script` cannot `import()` (Node 20 needs a flag for it): the build fails
 * when dist/cli.cjs would, naming the module. A Node built-in is loaded with
 * `process.getBuiltinModule` instead; anything else is bundled.
 */
function refuseDynamicImports(): void {
  const metafile = 'dist/metafile-cjs.json';
  const { outputs } = JSON.parse(readFileSync(metafile, 'utf8')) as {
    outputs: Record<string, { imports: { path: string; kind: string }[] }>;
  };
  rmSync(metafile);
  const dynamic = outputs['dist/cli.cjs']!.imports.filter((i) => i.kind === 'dynamic-import');
  if (dynamic.length > 0) {
    throw new Error(
      `dist/cli.cjs cannot import() ${dynamic.map((i) => i.path).join(', ')}: use process.getBuiltinModule or bundle it`,
    );
  }
}

export default defineConfig([
  {
    entry: { cli: 'src/cli.ts' },
    format: ['cjs'],
    outExtension: () => ({ js: '.cjs' }),
    target: 'es2022',
    platform: 'node',
    noExternal: [/./],
    metafile: true,
    onSuccess: async () => refuseDynamicImports(),
  },
  {
    entry: { bin: 'src/bin.ts' },
    format: ['esm'],
    target: 'es2022',
    platform: 'node',
    external: ['@listkit/service/serve'],
  },
]);
