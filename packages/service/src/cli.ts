#!/usr/bin/env node
// `node packages/service/dist/cli.js serve …`: the emulator without the listkit bin (tests, the
// soak and the benchmarks start it this way). The `listkit` bin runs the same serve().
import { serve } from './serve-command.js';

const [command, ...args] = process.argv.slice(2);
if (command === 'serve') await serve(args);
else if (command === '--help' || command === '-h') await serve(['--help']);
else {
  console.error(`listkit: the only command here is "serve" (got ${JSON.stringify(command ?? '')})`);
  process.exit(2);
}
