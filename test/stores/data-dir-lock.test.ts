// The data directory's lock under processes racing for it: of many processes finding one stale
// lock (left by a process that is gone) at the same moment, exactly one takes the directory.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LOCK_FILE } from '@listkit/service';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'listkit-lock-'));
let module = '';

beforeAll(async () => {
  const cache = join(root, 'packages/service/node_modules/.cache/listkit-tests');
  mkdirSync(cache, { recursive: true });
  module = join(cache, `data-dir-lock-${process.pid}.mjs`);
  await build({
    entryPoints: [join(root, 'packages/service/src/db/data-dir-lock.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: module,
    logLevel: 'silent',
  });
});
afterAll(() => {
  rmSync(module, { force: true });
  rmSync(work, { recursive: true, force: true });
});

/** A process that waits for `go` (a file), takes the lock, says so, and holds it 1.5 s. */
function contender(dir: string, go: string): Promise<string> {
  const script = `
import { existsSync } from 'node:fs';
import { lockDataDirectory } from ${JSON.stringify(pathToFileURL(module).href)};
while (!existsSync(${JSON.stringify(go)})) await new Promise((r) => setTimeout(r, 1));
try {
  lockDataDirectory(${JSON.stringify(dir)});
  console.log('took');
  await new Promise((r) => setTimeout(r, 1500));
} catch (error) {
  console.log(error.code === 'locked' ? 'locked' : 'error ' + error.message);
}`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  return new Promise((resolve) => child.on('exit', () => resolve(out.trim())));
}

it('of processes taking over one stale lock at once, exactly one gets the directory', async () => {
  // Before, each removed the stale file and created its own: a slower one removed the faster
  // one's fresh lock, and two processes held the directory.
  for (let round = 0; round < 3; round++) {
    const dir = join(work, `round-${round}`);
    mkdirSync(dir);
    writeFileSync(join(dir, LOCK_FILE), `${2 ** 22 + 1}\n`); // a pid that is not running
    const go = join(dir, 'go');
    const outcomes = Array.from({ length: 6 }, () => contender(dir, go));
    await new Promise((r) => setTimeout(r, 1500)); // every contender is up and waiting
    writeFileSync(go, '');
    const results = (await Promise.all(outcomes)).sort();
    expect(results, `round ${round}`).toEqual([
      'locked',
      'locked',
      'locked',
      'locked',
      'locked',
      'took',
    ]);
  }
}, 60_000);

it('leaves no lock behind once the holder exits', async () => {
  const dir = join(work, 'released');
  mkdirSync(dir);
  expect(await contender(dir, join(work, 'released'))).toBe('took');
  expect(() => readFileSync(join(dir, LOCK_FILE))).toThrow();
}, 30_000);
