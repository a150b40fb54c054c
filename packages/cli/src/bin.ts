// The installed `listkit` bin (bin/listkit.js imports this module, built to dist/bin.js): the
// program (cli.ts, bundled as the script dist/cli.cjs) compiled from V8's code cache, which
// makes start-up shorter (see compile-cache.ts).
import { fileURLToPath } from 'node:url';
import { compileCacheDirectory, requireWithCodeCache } from './compile-cache.js';
import { isFilterWorkerArgv } from './worker-marker.js';

const { runCli } = requireWithCodeCache(
  fileURLToPath(new URL('./cli.cjs', import.meta.url)),
  compileCacheDirectory(),
  // listkit filter's worker threads read the cache the main thread wrote; only it writes.
  !isFilterWorkerArgv(process.argv),
) as typeof import('./cli.js');

await runCli(process.argv, {
  importServe: () => import('@listkit/service/serve'),
  workerScript: fileURLToPath(import.meta.url),
});
