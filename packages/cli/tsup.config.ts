// The bin is one bundled file with its dependencies (the filter parser's chevrotain and the
// lodash-es modules under it would otherwise be hundreds of ES modules to resolve and load at
// every start); `listkit conform` is a chunk loaded only when run, and the emulator
// (`@listkit/service`, with PGlite's WebAssembly beside its own files) stays external.
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/cli.ts'],
  format: ['esm'],
  clean: true,
  target: 'es2022',
  noExternal: [/^(?!@listkit\/service)/],
  external: ['@listkit/service', '@electric-sql/pglite', 'pg'],
  // CommonJS dependencies (commander, protobufjs) require Node's built-ins.
  banner: {
    js: "import { createRequire as __listkitCreateRequire } from 'node:module'; const require = __listkitCreateRequire(import.meta.url);",
  },
});
