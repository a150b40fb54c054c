// The installed bin's code cache (packages/cli/src/compile-cache.ts): the bin and the program
// bundled from the sources as the build lays them out (the bin beside cli.cjs), run as child
// processes with the cache in a directory of the test's own.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFromSources, bundleServiceModule } from '../support/bundle-service.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'listkit-compile-cache-'));
let bin: { file: string; dispose: () => void } | undefined;
const input = '{"name":"a","size":1}\n{"name":"b","size":2}\n';

beforeAll(async () => {
  // The bin's directory is one where the emulator's dependencies resolve (it imports them).
  bin = await bundleServiceModule('packages/cli/src/bin.ts');
  await bundleFromSources(
    join(root, 'packages/cli/src/cli.ts'),
    join(dirname(bin.file), 'cli.cjs'),
    'cjs',
  );
}, 120_000);

afterAll(() => {
  bin?.dispose();
  rmSync(work, { recursive: true, force: true });
});

/** `listkit filter 'size > 1'` over `input`, with the given environment. */
function filter(env: Record<string, string>) {
  const run = spawnSync(process.execPath, [bin!.file, 'filter', 'size > 1'], {
    input,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const ok = { status: 0, stdout: '{"name":"b","size":2}\n', stderr: '' };

describe('the bin compiles the program from a code cache', () => {
  it('writes the cache on the first run and runs from it after', () => {
    const cache = join(work, 'cache');
    expect(filter({ LISTKIT_COMPILE_CACHE: cache })).toEqual(ok);
    const files = readdirSync(cache);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^cli\.cjs-v\d+.*\.v8$/);
    const file = join(cache, files[0]!);
    const written = statSync(file).mtimeMs;
    expect(filter({ LISTKIT_COMPILE_CACHE: cache })).toEqual(ok);
    // Accepted, so not written again.
    expect(statSync(file).mtimeMs).toBe(written);
    expect(readdirSync(cache)).toEqual(files);
  }, 60_000);

  it('replaces a cache V8 rejects, and keeps working', () => {
    const cache = join(work, 'rejected');
    expect(filter({ LISTKIT_COMPILE_CACHE: cache })).toEqual(ok);
    const file = join(cache, readdirSync(cache)[0]!);
    writeFileSync(file, 'not a code cache');
    expect(filter({ LISTKIT_COMPILE_CACHE: cache })).toEqual(ok);
    expect(readFileSync(file, 'latin1')).not.toBe('not a code cache');
  }, 60_000);

  it('runs without a cache when told to or when the directory cannot be made', () => {
    const home = join(work, 'xdg');
    mkdirSync(home);
    expect(filter({ LISTKIT_COMPILE_CACHE: 'off', XDG_CACHE_HOME: home })).toEqual(ok);
    expect(readdirSync(home)).toEqual([]);
    const blocked = join(work, 'a-file');
    writeFileSync(blocked, '');
    expect(filter({ LISTKIT_COMPILE_CACHE: join(blocked, 'cache') })).toEqual(ok);
    // Without LISTKIT_COMPILE_CACHE: under $XDG_CACHE_HOME.
    expect(filter({ LISTKIT_COMPILE_CACHE: '', XDG_CACHE_HOME: home })).toEqual(ok);
    expect(existsSync(join(home, 'listkit'))).toBe(true);
  }, 60_000);
});
