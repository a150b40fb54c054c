import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    cli: 'src/cli.ts',
    'serve-command': 'src/serve-command.ts',
    schema: 'src/schema.ts',
    // The PGlite thread is started by URL (pglite-thread.ts), so it must sit beside the chunks
    // as dist/pglite-worker.js, as it sits beside pglite-thread.ts in the sources.
    'pglite-worker': 'src/db/pglite-worker.js',
    // Run as a process by path (pglite-thread.ts), beside the worker for the same reason.
    'pglite-create': 'src/db/pglite-create.js',
  },
  format: ['esm'],
  dts: { entry: ['src/index.ts', 'src/cli.ts', 'src/serve-command.ts', 'src/schema.ts'] },
  clean: true,
  target: 'es2022',
});
