// `listkit filter --workers N`: NDJSON lines read on worker threads give exactly what the main
// thread alone gives (stdout, stderr and exit status), in input order, on every kind of line the
// reader knows; a worker that fails ends the run with a located message, never a hang.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleServiceModule } from '../support/bundle-service.js';
import { type Run, runListkit } from '../support/run-listkit.js';

const work = mkdtempSync(join(tmpdir(), 'listkit-workers-'));
let cli: { file: string; dispose: () => void } | undefined;

/** Runs `listkit args` (the bundle from the sources, or `script`) with `stdin` as its input. */
function listkit(args: string[], stdin?: string | Buffer): Promise<Run> {
  return runListkit(cli?.file ?? '', args, {
    env: { XDG_CONFIG_HOME: join(work, 'config'), LISTKIT_PAGE_TOKEN_SECRETS: '' },
    stdin: stdin ?? '',
  });
}

const file = (name: string, content: string | Buffer) => {
  const path = join(work, name);
  writeFileSync(path, content);
  return path;
};

/** A rule-like record of a few hundred bytes; `é` and `✓` make columns differ from bytes. */
const record = (i: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    name: `rule-${String(i).padStart(6, '0')}`,
    IPProtocol: i % 3 === 0 ? 'UDP' : 'TCP',
    labels: { env: i % 2 ? 'prod' : 'dev', note: i % 7 === 0 ? 'café ✓' : 'plain' },
    size: i % 100,
    x: i % 10,
    ports: [String(8000 + (i % 50)), String(9000 + (i % 7))],
    description: 'a forwarding rule of the benchmark data, long enough to fill a line'.repeat(2),
    t: new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString(),
    ...extra,
  });

/** `count` lines (some 8,000 lines make 3 MB: many batches of 256 KiB), changed where `at` says. */
function lines(count: number, at: Record<number, string> = {}): string {
  const out: string[] = [];
  for (let i = 1; i <= count; i++) out.push(at[i] ?? record(i));
  return `${out.join('\n')}\n`;
}

const BAD = {
  1500: '{"name": "broken", "size": }',
  3000: '',
  3001: '   ',
  4500: '[1, 2, 3]',
  5200: `{"name":"deep","v":${'['.repeat(600)}${']'.repeat(600)}}`,
  6100: '{"name":"café ✓", "size": 5, oops}',
  7000: '"just a string"',
};

beforeAll(async () => {
  cli = await bundleServiceModule('packages/cli/src/main.ts');
}, 60_000);

afterAll(() => {
  cli?.dispose();
  rmSync(work, { recursive: true, force: true });
});

/** Runs `args` with --workers 1 and 3: both must give the same run, which is returned. */
async function same(args: string[], stdin?: string | Buffer): Promise<Run> {
  const one = await listkit([...args, '--workers', '1'], stdin);
  const three = await listkit([...args, '--workers', '3'], stdin);
  // Page tokens are sealed with a fresh nonce each run.
  const unsealed = (run: Run) => ({
    ...run,
    stderr: run.stderr.replace(/nextPageToken: \S+/g, 'nextPageToken: …'),
  });
  expect(unsealed(three)).toEqual(unsealed(one));
  return one;
}

describe("the worker threads' marker typed on a command line", () => {
  it('is an unknown option (exit 2), not a worker run on the main thread', async () => {
    const run = await listkit(['--listkit-filter-worker-thread', 'filter', 'a = 1']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/unknown option '--listkit-filter-worker-thread'/);
    expect(run.stderr).not.toMatch(/TypeError| {4}at /);
  });
});

describe('listkit filter --workers N gives what one thread gives', () => {
  const filter = 'labels.env = prod AND size >= 40';

  it('on NDJSON files, in input order, in every output', async () => {
    const path = file('plain.ndjson', lines(8000));
    const run = await same(['filter', filter, path]);
    expect(run.status).toBe(0);
    const names = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).name as string);
    expect(names.length).toBe(2400);
    expect(names).toEqual([...names].sort());
    for (const output of ['json', 'count', 'table']) {
      expect((await same(['filter', filter, path, '--output', output])).status).toBe(0);
    }
    await same(['filter', filter, path, '--fields', 'name,labels.note', '--output', 'json']);
    await same(['filter', filter, path, '--atomic']);
    // Gzip, whatever the name, and stdin.
    await same(['filter', filter, file('plain.data', gzipSync(lines(8000)))]);
    const stdin = await same(['filter', filter], lines(8000));
    expect(stdin.stdout).toBe(run.stdout);
  }, 240_000);

  it('orders, pages and stops at a complete page', async () => {
    const path = file('pages.ndjson', lines(8000));
    const ordered = await same([
      'filter',
      filter,
      path,
      '--order-by',
      'size desc, IPProtocol',
      '--page-size',
      '7',
    ]);
    expect(ordered.stdout.trim().split('\n')).toHaveLength(7);
    expect(ordered.stderr).toMatch(/^nextPageToken: /);
    const first = await same(['filter', filter, path, '--page-size', '5']);
    expect(first.stdout.trim().split('\n')).toHaveLength(5);
  }, 240_000);

  it('reports malformed lines where they are, skipping them with --keep-going', async () => {
    const path = file('bad.ndjson', lines(8000, BAD));
    const kept = await same(['filter', filter, path, '--keep-going']);
    expect(kept.status).toBe(0);
    expect(kept.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/bad\.ndjson:1500:28: malformed JSON/),
      expect.stringMatching(/bad\.ndjson:4500:1: a line holds an array/),
      expect.stringMatching(/bad\.ndjson:5200:\d+: nested too deep/),
      expect.stringMatching(/bad\.ndjson:6100:30: malformed JSON/),
      expect.stringMatching(/bad\.ndjson:7000:1: a line holds "just a string"/),
    ]);
    const stopped = await same(['filter', filter, path]);
    expect(stopped.status).toBe(1);
    expect(stopped.stderr).toMatch(/^listkit: .*bad\.ndjson:1500:28: malformed JSON/);
    // The matches before the bad line were written, and none after it.
    expect(stopped.stdout.trim().split('\n').at(-1)).toMatch(/rule-001499/);
    const bounded = await same([
      'filter',
      filter,
      path,
      '--keep-going',
      '--max-record-bytes',
      '400',
    ]);
    expect(bounded.stderr).toMatch(/bad\.ndjson:5200:1: a record \(or line\) longer than/);
  }, 240_000);

  it('writes the matches sent to threads before a bound the main thread finds', async () => {
    // A line of 600 KB spans chunks: the main thread, holding its start, finds it too long while
    // the lines before it are still out on threads.
    const long = `{"name":"${'x'.repeat(600_000)}"}`;
    const path = file('long.ndjson', `${lines(8000)}${long}\n${lines(10)}`);
    const run = await same(['filter', filter, path, '--max-record-bytes', '300000']);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/long\.ndjson:8001:1: a record \(or line\) longer than/);
    expect(run.stdout.trim().split('\n').at(-1)).toMatch(/rule-007999/);
  }, 120_000);

  it('widens a type a later line disagrees with, and reads the lines after it again', async () => {
    // `t` is read as a timestamp until line 4000 holds other text; `x` (a number) never reads
    // line 6000's string.
    const at = { 4000: record(4000, { t: 'soon' }), 6000: record(6000, { x: 'ten' }) };
    const path = file('widen.ndjson', lines(8000, at));
    const widening = ['filter', 'x < 1 AND t >= "2025-01-01T01:00:00Z"', path];
    const run = await same([...widening, '--keep-going']);
    expect(run.stderr).toMatch(
      /notice: schema: field 't' holds a string \("soon"\) at .*widen\.ndjson:4000:1: read as string \(was timestamp\)/,
    );
    expect(run.stderr).toMatch(/widen\.ndjson:6000:1: field 'x' holds a string/);
    expect(run.stderr).toMatch(/1 record\(s\) skipped/);
    expect(run.stdout).toMatch(/rule-007990/);
    const refused = await same(widening);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/widen\.ndjson:6000:1: field 'x' holds a string/);
  }, 240_000);

  it('checks lines against --schema, and reads a byte-order mark', async () => {
    const printed = await listkit(['filter', '', '--print-schema'], lines(100));
    const schema = file('schema.json', printed.stdout);
    const at = { 5000: record(5000, { size: 'large' }) };
    const path = file('schema.ndjson', lines(8000, at));
    const run = await same(['filter', 'size > 90', path, '--schema', schema]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/schema\.ndjson:5000: does not match --schema/);
    const bom = file(
      'bom.ndjson',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lines(8000, BAD))]),
    );
    const withBom = await same(['filter', filter, bom, '--keep-going']);
    expect(withBom.stderr).toMatch(/bom\.ndjson:1500:28: malformed JSON/);
  }, 240_000);
});

describe('listkit filter --workers N reads JSON arrays as one thread does', () => {
  const filter = 'labels.env = prod AND size >= 40';
  const records = (count: number, at: Record<number, string> = {}) =>
    Array.from({ length: count }, (_, k) => at[k + 1] ?? record(k + 1));

  it('pretty-printed and one-line arrays, and a list response, in every output', async () => {
    const pretty = file(
      'pretty.json',
      JSON.stringify(
        records(8000).map((r) => JSON.parse(r)),
        null,
        2,
      ),
    );
    const run = await same(['filter', filter, pretty]);
    expect(run.stdout.trim().split('\n')).toHaveLength(2400);
    await same(['filter', filter, pretty, '--output', 'json']);
    await same([
      'filter',
      filter,
      pretty,
      '--order-by',
      'size desc, IPProtocol',
      '--page-size',
      '7',
    ]);
    const oneLine = file('one-line.json', `[${records(8000).join(',')}]`);
    expect((await same(['filter', filter, oneLine])).stdout).toBe(run.stdout);
    const list = file('list.json', `{"kind":"x#list","items":[${records(8000).join(',')}]}`);
    expect((await same(['filter', filter, list])).stdout).toBe(run.stdout);
  }, 240_000);

  it('a malformed element, a widened type and a value it cannot read', async () => {
    const bad = file(
      'bad-element.json',
      `[${records(8000, { 5000: '{"name": "café ✓", oops}' }).join(',\n')}]`,
    );
    const stopped = await same(['filter', filter, bad]);
    expect(stopped.status).toBe(1);
    expect(stopped.stderr).toMatch(/bad-element\.json:5000:20: malformed JSON/);
    expect(stopped.stdout.trim().split('\n').at(-1)).toMatch(/rule-004999/);
    const at = { 4000: record(4000, { t: 'soon' }), 6000: record(6000, { x: 'ten' }) };
    const widen = file('widen.json', `[${records(8000, at).join(',')}]`);
    const args = ['filter', 'x < 1 AND t >= "2025-01-01T01:00:00Z"', widen, '--keep-going'];
    const run = await same(args);
    expect(run.stderr).toMatch(/notice: schema: field 't' holds a string \("soon"\)/);
    expect(run.stderr).toMatch(/widen\.json:1:\d+: field 'x' holds a string \("ten"\)/);
    expect(run.stdout).toMatch(/rule-007990/);
  }, 240_000);
});

describe('listkit filter worker threads end cleanly', () => {
  it('stream: a line read on a thread is written while stdin is still open', async () => {
    const child = spawn(process.execPath, [cli!.file, 'filter', 'a >= 1', '--workers', '2'], {
      env: { ...process.env, XDG_CONFIG_HOME: join(work, 'config') },
    });
    let stdout = '';
    const seen = (wanted: string) =>
      new Promise<void>((resolve) => {
        const look = () => {
          if (stdout.includes(wanted)) resolve();
          else child.stdout.once('data', look);
        };
        look();
      });
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    // The first line is read on the main thread (the schema is inferred from it); the next
    // arrives in a chunk of its own, which goes to a thread once the schema is known.
    child.stdin.write('{"a":1}\n');
    await seen('{"a":1}\n');
    child.stdin.write('{"a":2}\n{"a":0}\n{"a":3}\n');
    // A run that held these matches until the input ended would never get past this wait.
    await seen('{"a":3}\n');
    child.stdin.end('{"a":4}\n');
    expect(await closed).toBe(0);
    expect(stdout).toBe('{"a":1}\n{"a":2}\n{"a":3}\n{"a":4}\n');
  }, 60_000);

  it('a worker that cannot start (its program removed mid-run) is a located error, not a hang', async () => {
    // A copy of the program that this test may remove while the run reads a stdin it never ends
    // (beside the bundle, where the packages it leaves out resolve).
    const script = join(dirname(cli!.file), 'doomed-main.mjs');
    copyFileSync(cli!.file, script);
    const child = spawn(process.execPath, [script, 'filter', 'a >= 1', '--workers', '2'], {
      env: { ...process.env, XDG_CONFIG_HOME: join(work, 'config') },
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.on('error', () => undefined);
    child.stdin.write('{"a":1}\n');
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (d) => {
        stdout += d;
        if (stdout.includes('\n')) resolve();
      }),
    );
    rmSync(script);
    child.stdin.write('{"a":2}\n{"a":3}\n');
    expect(await closed).toBe(1);
    expect(stderr).toMatch(/^listkit: <stdin>:2: a worker thread failed reading lines 2–3 \(/);
    expect(stderr).not.toMatch(/^\s+at /m);
    child.stdin.destroy();
  }, 60_000);
});
