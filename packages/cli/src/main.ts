// `listkit` as an ES module: what the tests bundle from the sources and run. The installed bin
// starts through bin.ts instead, the same program loaded with a compile cache.
import { fileURLToPath } from 'node:url';
import { runCli } from './cli.js';

await runCli(process.argv, {
  importServe: () => import('@listkit/service/serve'),
  workerScript: fileURLToPath(import.meta.url),
});
