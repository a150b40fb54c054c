// `listkit filter` as users run it: the real command as a child process, over files and stdin.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleServiceModule } from '../support/bundle-service.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'listkit-filter-'));
let cli: { file: string; dispose: () => void } | undefined;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `listkit …` with `stdin` piped in (or nothing). */
function listkit(args: string[], stdin?: string | Buffer): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli?.file ?? '', ...args], {
      env: {
        ...process.env,
        XDG_CONFIG_HOME: join(work, 'config'),
        LISTKIT_PAGE_TOKEN_SECRETS: '',
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin ?? '');
  });
}

const rules = Array.from({ length: 30 }, (_, i) => ({
  name: `web-${String(i).padStart(2, '0')}`,
  IPProtocol: i % 3 === 0 ? 'UDP' : 'TCP',
  labels: { env: i % 2 ? 'prod' : 'dev', ...(i % 5 === 0 ? { team: 'core' } : {}) },
  creationTimestamp: new Date(Date.UTC(2025, 0, 1 + i)).toISOString(),
  ports: [String(8000 + i)],
  size: i,
}));
const file = (name: string, content: string | Buffer) => {
  const path = join(work, name);
  writeFileSync(path, content);
  return path;
};
const ndjson = rules.map((r) => JSON.stringify(r)).join('\n');
const names = (out: string) =>
  out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line).name);

beforeAll(async () => {
  // The bin from its TypeScript sources, bundled outside the checkout's tracked files (PGlite and
  // pg, which only `serve` loads, resolve from the service package).
  cli = await bundleServiceModule('packages/cli/src/main.ts');
}, 60_000);

afterAll(() => {
  cli?.dispose();
  rmSync(work, { recursive: true, force: true });
});

describe('listkit filter reads every shape of input', () => {
  const expected = rules
    .filter((r) => r.labels.env === 'prod' && r.IPProtocol === 'TCP')
    .map((r) => r.name);
  const filter = 'labels.env = prod AND IPProtocol = TCP';

  it.each([
    ['a JSON array', () => [file('array.json', JSON.stringify(rules, null, 2))]],
    [
      'a list response with items',
      () => [file('list.json', JSON.stringify({ kind: 'x#list', items: rules }))],
    ],
    [
      'an AIP-style list response',
      () => [file('aip.json', JSON.stringify({ rules, nextPageToken: '' }))],
    ],
    ['NDJSON', () => [file('rules.ndjson', `${ndjson}\n`)]],
    ['gzip NDJSON, whatever its name', () => [file('rules.data', gzipSync(ndjson))]],
    [
      'two files',
      () => [
        file(
          'a.ndjson',
          rules
            .slice(0, 10)
            .map((r) => JSON.stringify(r))
            .join('\n'),
        ),
        file('b.json', JSON.stringify(rules.slice(10))),
      ],
    ],
  ])('%s', async (_name, files) => {
    const run = await listkit(['filter', filter, ...files()]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(names(run.stdout)).toEqual(expected);
  });

  it('NDJSON and a pretty-printed document from stdin', async () => {
    expect(names((await listkit(['filter', filter], ndjson)).stdout)).toEqual(expected);
    expect(
      names((await listkit(['filter', filter, '-'], JSON.stringify(rules, null, 2))).stdout),
    ).toEqual(expected);
  });

  it('--items names where a document holds its records', async () => {
    const path = file('nested.json', JSON.stringify({ data: { results: rules } }));
    const run = await listkit(['filter', 'size < 2', path, '--items', 'data.results']);
    expect(names(run.stdout)).toEqual(['web-00', 'web-01']);
  });
});

describe('listkit filter prints what was asked', () => {
  const path = () => file('out.json', JSON.stringify(rules));

  it('counts, projects, tabulates and wraps in a list response', async () => {
    expect(
      (await listkit(['filter', 'name eq "web-1.*"', path(), '--output', 'count'])).stdout,
    ).toBe('10\n');
    const projected = await listkit(['filter', 'size = 3', path(), '--fields', 'name,labels.env']);
    expect(JSON.parse(projected.stdout)).toEqual({ name: 'web-03', labels: { env: 'prod' } });
    const table = (
      await listkit(['filter', 'size <= 1', path(), '--output', 'table'])
    ).stdout.split('\n');
    expect(table[0]).toMatch(/^name\s+IPProtocol\s+creationTimestamp\s+size$/);
    expect(table[1]).toMatch(/^web-00\s+UDP/);
    const json = JSON.parse(
      (await listkit(['filter', 'size <= 1', path(), '--output', 'json'])).stdout,
    );
    expect(json.items.map((r: { name: string }) => r.name)).toEqual(['web-00', 'web-01']);
    expect(
      JSON.parse((await listkit(['filter', 'size < 0', path(), '--output', 'json'])).stdout),
    ).toEqual({ items: [] });
  });

  it('orders, and walks pages with tokens: every match exactly once', async () => {
    const args = [
      'filter',
      'IPProtocol = TCP',
      path(),
      '--order-by',
      'creationTimestamp desc',
      '--page-size',
      '3',
      '--output',
      'json',
    ];
    const seen: string[] = [];
    let token: string | undefined;
    for (let page = 0; page < 20; page++) {
      const run = await listkit([...args, ...(token ? ['--page-token', token] : [])]);
      expect(run.status).toBe(0);
      const body = JSON.parse(run.stdout);
      seen.push(...body.items.map((r: { name: string }) => r.name));
      token = body.nextPageToken;
      if (!token) break;
    }
    const expected = rules
      .filter((r) => r.IPProtocol === 'TCP')
      .sort((a, b) => b.creationTimestamp.localeCompare(a.creationTimestamp))
      .map((r) => r.name);
    expect(seen).toEqual(expected);
    // ndjson pages print the next token on stderr
    const first = await listkit(['filter', '', path(), '--page-size', '2']);
    expect(names(first.stdout)).toEqual(['web-00', 'web-01']);
    const next = /^nextPageToken: (\S+)$/m.exec(first.stderr)![1]!;
    const second = await listkit(['filter', '', path(), '--page-size', '2', '--page-token', next]);
    expect(names(second.stdout)).toEqual(['web-02', 'web-03']);
    // the token is bound to its query
    const other = await listkit([
      'filter',
      'size > 1',
      path(),
      '--page-size',
      '2',
      '--page-token',
      next,
    ]);
    expect(other.status).toBe(2);
    expect(other.stderr).toMatch(/--page-token/);
  });

  it('explains, plans SQL, and prints a schema that --schema reads back', async () => {
    const explained = await listkit([
      'filter',
      'labels.env = prod AND NOT size > 3',
      path(),
      '--explain',
    ]);
    expect(explained.stdout).toMatch(/^All of these hold:\n {2}labels\.env is exactly "prod"/);
    const sql = await listkit(['filter', 'labels.env = prod', path(), '--sql']);
    expect(sql.stdout).toMatch(/SELECT .* FROM "resources"\nWHERE .*"labels" @> \$1::jsonb/);
    const sqlite = await listkit([
      'filter',
      '(name eq "a.*")',
      path(),
      '--sql',
      '--dialect',
      'sqlite',
    ]);
    expect(sqlite.stdout).toMatch(/SELECT .* FROM "resources"\nWHERE .*"name" GLOB \?/);
    expect(sqlite.stdout).toMatch(/-- name: sqlite has no regex operator/);
    const mysql = await listkit([
      'filter',
      '(name eq "a.*") (IPProtocol eq "UDP")',
      path(),
      '--sql',
      '--dialect',
      'mysql',
    ]);
    expect(mysql.stdout).toMatch(
      /SELECT `resource` AS `resource` FROM `resources`\nWHERE .*`ip_protocol` LIKE \? ESCAPE '!'/,
    );
    expect(mysql.stdout).toMatch(/`name` LIKE \? ESCAPE '!'/);
    expect(mysql.stdout).toMatch(/-- name: mysql has no regex operator/);
    // Spanner's regex is RE2: the pattern pushes down whole, anchored, with nothing left over.
    const spanner = await listkit([
      'filter',
      '(name eq "a.*")',
      path(),
      '--sql',
      '--dialect',
      'spanner',
    ]);
    expect(spanner.stdout).toMatch(
      /SELECT .* FROM `resources`\nWHERE .*REGEXP_CONTAINS\(`name`, @p1\)/,
    );
    expect(spanner.stdout).not.toMatch(/^-- name:/m);
    const schema = await listkit(['filter', '', path(), '--print-schema']);
    expect(JSON.parse(schema.stdout)).toMatchObject({
      key: 'name',
      fields: {
        creationTimestamp: { kind: 'timestamp' },
        labels: { kind: 'map' },
        // JSON has one number type: integers in the sample are still read as numbers.
        size: { kind: 'double' },
      },
    });
    const schemaFile = file('schema.json', schema.stdout);
    const fromFile = await listkit(['filter', 'size > 27', path(), '--schema', schemaFile]);
    expect(names(fromFile.stdout)).toEqual(['web-28', 'web-29']);
  });

  it('takes a JSON Schema, which can type what inference cannot see', async () => {
    const jsonSchema = file(
      'rule.schema.json',
      JSON.stringify({
        type: 'object',
        properties: {
          name: { type: 'string' },
          IPProtocol: { enum: ['TCP', 'UDP', 'ESP'] },
          size: { type: 'integer' },
        },
      }),
    );
    const run = await listkit([
      'filter',
      'IPProtocol = ESP OR size = 4',
      path(),
      '--schema',
      jsonSchema,
    ]);
    expect(run.status).toBe(0);
    expect(names(run.stdout)).toEqual(['web-04']);
    const refused = await listkit(['filter', 'IPProtocol = SCTP', path(), '--schema', jsonSchema]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/'SCTP' is not a value of 'IPProtocol'/);
  });

  it('checks records against --schema: refused naming the line and path, or --coerce', async () => {
    const schema = file(
      'region.schema.json',
      JSON.stringify({
        type: 'object',
        properties: {
          name: { type: 'string' },
          area: { type: 'number' },
          independent: { type: 'boolean' },
        },
      }),
    );
    const records = file(
      'regions.ndjson',
      [
        { name: 'a', area: 3, independent: true },
        { name: 'b', area: '12', independent: 1 },
        { name: 'c', area: 20, independent: null },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    const refused = await listkit(['filter', 'area > 10', records, '--schema', schema]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(
      `${records}:2: does not match --schema: area: expected a number, got "12"`,
    );
    expect(refused.stdout).toBe('');
    const coerced = await listkit(['filter', 'area > 10', records, '--schema', schema, '--coerce']);
    expect(coerced.status).toBe(0);
    expect(
      coerced.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { name: 'b', area: 12, independent: true },
      { name: 'c', area: 20 },
    ]);
  });

  it("takes a .proto message: Compute's own compute.proto", async () => {
    const proto = join(
      root,
      'node_modules/@google-cloud/compute/build/protos/google/cloud/compute/v1/compute.proto',
    );
    const args = ['filter', 'labels.env = prod AND IPProtocol = TCP', path(), '--schema', proto];
    const run = await listkit([...args, '--message', 'google.cloud.compute.v1.ForwardingRule']);
    expect(run.status).toBe(0);
    expect(names(run.stdout)).toEqual(
      rules.filter((r) => r.labels.env === 'prod' && r.IPProtocol === 'TCP').map((r) => r.name),
    );
    const noMessage = await listkit(args);
    expect(noMessage.status).toBe(2);
    expect(noMessage.stderr).toMatch(/--message/);
  });

  it('keys data without a name or id by input position', async () => {
    const rows = file('rows.ndjson', '{"v":3}\n{"v":1}\n{"v":3}\n');
    const run = await listkit(['filter', 'v = 3', rows]);
    expect(run.stdout).toBe('{"v":3}\n{"v":3}\n');
    const ordered = await listkit(['filter', '', rows, '--order-by', 'v desc', '--page-size', '2']);
    expect(ordered.stdout).toBe('{"v":3}\n{"v":3}\n');
    // The position is listkit's own key, not a field of the data the schema guard checks.
    const own = await listkit(
      ['filter', '', '--order-by', 'v desc', '--sample-size', '1'],
      '{"v":3}\n{"v":1}\n{"v":2,"$position":"x"}\n',
    );
    expect(own.status).toBe(0);
    expect(
      own.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).v),
    ).toEqual([3, 2, 1]);
  });
});

describe('listkit filter refuses bad input clearly', () => {
  it('a bad filter: the caret message, exit 2', async () => {
    const run = await listkit(['filter', 'sise > 3'], ndjson);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain("sise > 3\n^~~~ unknown field 'sise'; did you mean 'size'? (1:1)");
  });

  it('usage errors exit 2', async () => {
    for (const args of [
      ['filter', '--nope'],
      ['filter', '', '--page-size', '0'],
      ['filter', '', '--output', 'xml'],
      ['filter', '', '--output', 'count', '--page-size', '3'],
      ['frobnicate'],
    ]) {
      const run = await listkit(args, ndjson);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stdout).toBe('');
    }
  });

  it('malformed NDJSON names file, line and column; --atomic then prints nothing', async () => {
    const lines = ndjson.split('\n');
    lines.splice(3, 0, '{"name": "x", oops}');
    const path = file('bad.ndjson', lines.join('\n'));
    const run = await listkit(['filter', '', path]);
    expect(run.status).toBe(1);
    // Streaming: the three records before the bad line were written as they were read.
    expect(names(run.stdout)).toEqual(['web-00', 'web-01', 'web-02']);
    expect(run.stderr).toMatch(new RegExp(`${path}:4:15: malformed JSON`));
    const atomic = await listkit(['filter', '', path, '--atomic']);
    expect(atomic.status).toBe(1);
    expect(atomic.stdout).toBe('');
    expect(atomic.stderr).toBe(run.stderr);

    const kept = await listkit(['filter', '', path, '--keep-going']);
    expect(kept.status).toBe(0);
    expect(names(kept.stdout)).toHaveLength(30);
    expect(kept.stderr).toMatch(/:4:15: malformed JSON/);

    const notObject = await listkit(['filter', ''], '{"name":"a"}\n[1,2]\n');
    expect(notObject.status).toBe(1);
    expect(notObject.stderr).toMatch(/<stdin>:2:1: a line holds an array/);
  });

  it('a malformed document names its line and column; a missing file its name', async () => {
    const path = file('bad.json', '[\n  {"name": "a"},\n  {"name": "b",,}\n]');
    const run = await listkit(['filter', '', path]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`${path}:3:16: malformed JSON`));
    const missing = await listkit(['filter', '', join(work, 'nope.json')]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/nope\.json: ENOENT/);
    const gzip = await listkit(['filter', ''], Buffer.from([0x1f, 0x8b, 1, 2, 3]));
    expect(gzip.status).toBe(1);
    expect(gzip.stderr).toMatch(/<stdin>: not valid gzip/);
  });

  it('ends quietly, status 0, when stdout closes early (| head)', async () => {
    const big = file(
      'big.ndjson',
      `${Array.from({ length: 200_000 }, (_, i) => JSON.stringify({ name: `r${i}`, pad: 'x'.repeat(100) })).join('\n')}\n`,
    );
    const run = await new Promise<Run>((resolve) => {
      // pipefail: the pipeline's status is listkit's too, not only head's.
      const child = spawn('bash', [
        '-c',
        `set -o pipefail; "${process.execPath}" "${cli?.file}" filter '' "${big}" | head -n 1`,
      ]);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => {
        stdout += d;
      });
      child.stderr.on('data', (d) => {
        stderr += d;
      });
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
    expect(run.stdout).toBe(
      '{"name":"r0","pad":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}\n',
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});

describe('listkit filter memory', () => {
  /** Streams `lines` NDJSON records into the command and reads its peak RSS (VmHWM) from /proc. */
  async function peakRss(
    args: string[],
    lines: number,
  ): Promise<{ stdout: string; peakMiB: number }> {
    // A 64 MiB heap: a run that held the input (or its matches) would die of it, whatever RSS
    // the machine's allocator reports.
    const child = spawn(process.execPath, ['--max-old-space-size=64', cli?.file ?? '', ...args], {
      env: { ...process.env, XDG_CONFIG_HOME: join(work, 'config') },
    });
    let stdout = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    const rss = watchPeakRss(child.pid);
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    const batch = 10_000;
    for (let start = 0; start < lines; start += batch) {
      let text = '';
      for (let i = start; i < start + batch; i++) {
        text += `{"name":"r${i}","labels":{"env":"${i % 7 === 0 ? 'prod' : 'dev'}"},"size":${i % 1000},"createTime":"2025-01-01T00:00:00Z","note":"${'n'.repeat(40)}"}\n`;
      }
      rss.read();
      if (!child.stdin.write(text)) await new Promise((r) => child.stdin.once('drain', r));
    }
    rss.read();
    child.stdin.end();
    const status = await closed;
    const peakMiB = rss.stop();
    expect(status).toBe(0);
    return { stdout, peakMiB };
  }

  // Three million records (about 400 MB): held in memory they would take gigabytes. Read by two
  // worker threads (as on a 2-core machine by default), each holding some 25-40 MiB of its own:
  // 240 MiB is the bound then; the main thread alone stays under 160 (the stalled reader below).
  it('streams NDJSON in bounded memory, counting or ordering a page', async () => {
    const counted = await peakRss(
      ['filter', 'labels.env = prod', '--output', 'count', '--workers', '2'],
      3_000_000,
    );
    expect(counted.stdout).toBe(`${Math.ceil(3_000_000 / 7)}\n`);
    expect(counted.peakMiB).toBeLessThan(240);

    const top = await peakRss(
      [
        'filter',
        'size > 990',
        '--order-by',
        'size desc, name',
        '--page-size',
        '3',
        '--fields',
        'name,size',
        '--workers',
        '2',
      ],
      1_000_000,
    );
    expect(
      top.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { name: 'r100999', size: 999 },
      { name: 'r101999', size: 999 },
      { name: 'r102999', size: 999 },
    ]);
    expect(top.peakMiB).toBeLessThan(240);
  }, 600_000);
});

describe('listkit serve', () => {
  it('is a command of the same bin, with its own options', async () => {
    const run = await listkit(['serve', '--help']);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/usage: listkit serve \[options\]/);
    expect(run.stdout).toMatch(/--data-dir <dir>/);
    const bad = await listkit(['serve', '--port', 'x']);
    expect(bad.status).toBe(2);
  });

  it('every command has --help', async () => {
    const top = await listkit(['--help']);
    expect(top.status).toBe(0);
    expect(top.stdout).toMatch(/filter \[options\] \[filter\] \[files\.\.\.\]/);
    expect(top.stdout).toMatch(/Exit status:/);
    const filter = await listkit(['filter', '--help']);
    expect(filter.status).toBe(0);
    expect(filter.stdout).toMatch(/--order-by <orderBy>/);
  });
});

/** The listkit child process with stdin and stdout left to the test (`extra` node flags first). */
function spawnListkit(args: string[], options: { extra?: string[]; tmp?: string } = {}) {
  return spawn(process.execPath, [...(options.extra ?? []), cli?.file ?? '', ...args], {
    env: {
      ...process.env,
      XDG_CONFIG_HOME: join(work, 'config'),
      ...(options.tmp ? { TMPDIR: options.tmp } : {}),
    },
  });
}

/** Resolves when `stream` has carried text containing `wanted` (or ended: then rejects). */
function seen(stream: NodeJS.ReadableStream, wanted: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let text = '';
    stream.on('data', (d) => {
      text += d;
      if (text.includes(wanted)) resolve();
    });
    stream.on('end', () => reject(new Error(`ended without ${wanted}: ${text}`)));
  });
}

describe('listkit filter streams', () => {
  // Each case writes its first part, waits until the match of that part is on stdout, and only
  // then writes the rest: a command that held its output until the input ended never gets there.
  it.each([
    ['NDJSON', [], '{"a":1}\n', '{"a":2}\n'],
    ['NDJSON with --schema', ['--schema', 'SCHEMA'], '{"a":1}\n', '{"a":2}\n'],
    ['NDJSON with --keep-going', ['--keep-going'], '{"a":1}\n', '{"a":2}\n'],
    ['a JSON array', [], '[{"a":1},', '{"a":2}]'],
    ['a list response', ['--items', 'items'], '{"items":[{"a":1},', '{"a":2}]}'],
  ])(
    '%s: a match is written before the rest of the input arrives',
    async (_n, flags, first, rest) => {
      const schema = file(
        'a-schema.json',
        JSON.stringify({ key: 'a', fields: { a: { kind: 'int64' } } }),
      );
      const child = spawnListkit([
        'filter',
        'a >= 1',
        ...flags.map((f) => (f === 'SCHEMA' ? schema : f)),
      ]);
      const events: string[] = [];
      const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
      child.stdin.write(first);
      await seen(child.stdout, '{"a":1}');
      events.push('first match written');
      child.stdin.end(rest);
      const second = seen(child.stdout, '{"a":2}').then(() => events.push('second match written'));
      events.push('rest of input sent');
      await second;
      expect(await closed).toBe(0);
      expect(events).toEqual(['first match written', 'rest of input sent', 'second match written']);
    },
    60_000,
  );

  it('| head -1 on an endless input ends the process with status 0 and leaves no file', async () => {
    const tmp = mkdtempSync(join(work, 'tmp-'));
    for (const flags of [
      [],
      ['--keep-going'],
      ['--workers', '2'],
      ['--workers', '2', '--keep-going'],
    ]) {
      const child = spawnListkit(['filter', 'a = 1', ...flags], { tmp });
      child.stdin.on('error', () => undefined);
      const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
      let open = true;
      child.on('exit', () => {
        open = false;
      });
      // An endless input: written for as long as the process reads it.
      const lines = '{"a":1}\n'.repeat(8192);
      // One exit listener for the whole loop (one per wait would pile up on the child).
      const exited = new Promise((r) => child.once('exit', r));
      void (async () => {
        while (open) {
          if (!child.stdin.write(lines)) {
            await Promise.race([new Promise((r) => child.stdin.once('drain', r)), exited]);
          }
        }
      })();
      await seen(child.stdout, '\n');
      child.stdout.destroy(); // head has its line and closes the pipe
      expect(await closed).toBe(0);
    }
    expect(readdirSync(tmp)).toEqual([]);
  }, 120_000);

  it('--atomic holds output in a temporary file that SIGINT and | head -1 remove', async () => {
    const tmp = mkdtempSync(join(work, 'tmp-'));
    const child = spawnListkit(['filter', 'a = 1', '--atomic'], { tmp });
    child.stdin.on('error', () => undefined);
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    // More than the 16 MiB held in memory, so the output spills to a file.
    const lines = `{"a":1,"pad":"${'x'.repeat(200)}"}\n`.repeat(4096);
    let written = 0;
    while (readdirSync(tmp).length === 0 || written < 40 * 1024 * 1024) {
      written += lines.length;
      if (!child.stdin.write(lines)) await new Promise((r) => child.stdin.once('drain', r));
    }
    expect(readdirSync(tmp)[0]).toMatch(/^listkit-output-/);
    child.kill('SIGINT');
    expect(await closed).toBe(130);
    expect(readdirSync(tmp)).toEqual([]);
    expect(child.stdout.read()).toBeNull();

    const drained = spawnListkit(['filter', 'a = 1', '--atomic'], { tmp });
    drained.stdin.on('error', () => undefined);
    const ended = new Promise<number | null>((resolve) => drained.on('close', resolve));
    for (let sent = 0; sent < 40 * 1024 * 1024; sent += lines.length) {
      if (!drained.stdin.write(lines)) await new Promise((r) => drained.stdin.once('drain', r));
    }
    drained.stdin.end();
    await seen(drained.stdout, '\n');
    drained.stdout.destroy(); // | head -1
    expect(await ended).toBe(0);
    expect(readdirSync(tmp)).toEqual([]);
  }, 120_000);

  it.each([
    ['the main thread alone', '1', 160],
    ['two worker threads', '2', 240],
  ])(
    '--keep-going under a stalled reader keeps memory bounded (and warns of no listeners): %s',
    async (_name, workers, boundMiB) => {
      // 2.5 million matching lines (20 MB) while stdout is not read: a command that queued its
      // writes would hold them all; under a 64 MiB heap it would die of it.
      const child = spawnListkit(['filter', 'a = 1', '--keep-going', '--workers', workers], {
        extra: ['--max-old-space-size=64'],
      });
      const producer = spawn('bash', ['-c', `yes '{"a":1}' | head -c 20000000`]);
      producer.stdout.pipe(child.stdin);
      child.stdin.on('error', () => undefined);
      let stderr = '';
      child.stderr.on('data', (d) => {
        stderr += d;
      });
      const rss = watchPeakRss(child.pid);
      // The reader stalls until the producer has written all it will (its pipe then blocks).
      await new Promise((r) => setTimeout(r, 3000));
      rss.read();
      let lines = 0;
      child.stdout.on('data', (d: Buffer) => {
        for (const byte of d) if (byte === 0x0a) lines++;
      });
      const status = await new Promise((resolve) => child.on('close', resolve));
      expect(status).toBe(0);
      expect(lines).toBe(2_500_000);
      expect(stderr).toBe('');
      expect(rss.stop()).toBeLessThan(boundMiB);
    },
    300_000,
  );
});

/** Runs `listkit args` under a 64 MiB heap with stdin from `input`; its peak RSS in MiB. */
async function bounded(args: string[], input: string | Buffer): Promise<Run & { peakMiB: number }> {
  const child = spawnListkit(args, { extra: ['--max-old-space-size=64'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const rss = watchPeakRss(child.pid);
  child.stdin.on('error', () => undefined);
  child.stdin.end(input);
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { status, stdout, stderr, peakMiB: rss.stop() };
}

/**
 * The peak RSS (VmHWM, from /proc) of process `pid`, read every 50 ms and on `read()`; `stop()`
 * ends the polling and gives the peak in MiB.
 */
function watchPeakRss(pid: number | undefined) {
  let peak = 0;
  const read = () => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      peak = Math.max(peak, Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0));
    } catch {
      // exited
    }
  };
  const poll = setInterval(read, 50);
  return {
    read,
    stop: () => {
      clearInterval(poll);
      return peak / 1024;
    },
  };
}

describe('listkit filter reads any input in bounded memory, with located errors', () => {
  const records = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ name: `r${i}`, size: i % 100, note: 'n'.repeat(60) }));

  it('a one-line array and a one-line list response of 20 MB, element by element', async () => {
    const many = records(200_000);
    for (const text of [
      JSON.stringify(many),
      JSON.stringify({ kind: 'k#list', items: many, nextPageToken: 't' }),
      JSON.stringify({ books: many, nextPageToken: 't' }),
    ]) {
      // The main thread alone, and with two worker threads (the array's elements go to them; a
      // thread holds some 25-40 MiB of its own).
      for (const [workers, boundMiB] of [
        ['1', 160],
        ['2', 240],
      ] as const) {
        const args = ['filter', 'size = 7', '--output', 'count', '--workers', workers];
        const run = await bounded(args, text);
        expect(run.stderr).toBe('');
        expect(run.stdout).toBe('2000\n');
        expect(run.peakMiB).toBeLessThan(boundMiB);
      }
    }
  }, 300_000);

  it('bounds a line, a record and a run of whitespace, naming the bound', async () => {
    const long = await bounded(
      ['filter', '', '--max-record-bytes', '1000'],
      `{"a":1}\n{"a":"${'x'.repeat(5000)}"}\n`,
    );
    expect(long.status).toBe(1);
    expect(long.stderr).toBe(
      'listkit: <stdin>:2:1: a record (or line) longer than 1000 bytes; raise the bound with --max-record-bytes\n',
    );
    const record = await bounded(
      ['filter', '', '--max-record-bytes', '1000'],
      `[{"a":1},\n {"a":"${'x'.repeat(5000)}"}]`,
    );
    expect(record.status).toBe(1);
    expect(record.stderr).toMatch(
      /^listkit: <stdin>:2:2: a record \(or line\) longer than 1000 bytes/,
    );
    // 200 MB of newlines and spaces, gzipped to a fraction of a MB: nothing of it is held.
    const blank = gzipSync(Buffer.alloc(200 * 1024 * 1024, ' \n'));
    const spaces = await bounded(['filter', ''], Buffer.concat([blank]));
    expect(spaces.status).toBe(0);
    expect(spaces.stdout).toBe('');
    expect(spaces.peakMiB).toBeLessThan(160);
  }, 300_000);

  it('nesting past --max-depth is a located error, exit 1, never a stack trace', async () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    for (const [input, where] of [
      [`[{"a":${deep(100_000)}}]`, '<stdin>:1:517'],
      [`{"a":1}\n{"a":${deep(100_000)}}\n`, '<stdin>:2:517'],
      [`{"a":${deep(100_000)}}`, '<stdin>:1:517'],
    ] as const) {
      const run = await bounded(['filter', ''], input);
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(
        `listkit: ${where}: nested too deep (more than 512 levels of arrays and objects); raise the bound with --max-depth\n`,
      );
    }
    const raised = await bounded(['filter', '', '--max-depth', '1000'], `{"a":${deep(600)}}\n`);
    expect(raised.status).toBe(0);
  }, 120_000);

  it('names the exact line and column of malformed input, and accepts a byte-order mark', async () => {
    const cases: [string, string, string?][] = [
      ['xx\n', '<stdin>:1:1: malformed JSON: unexpected "x"'],
      // Streaming, the records before the error are written (the third element).
      [
        '{"a":1}\n{"a":}\n',
        '<stdin>:2:6: malformed JSON: expected a value, found "}"',
        '{"a":1}\n',
      ],
      [
        '{"a":1}\n{"a":tru, "b": 2}\n',
        '<stdin>:2:9: malformed JSON: unexpected "," in true',
        '{"a":1}\n',
      ],
      [
        '[{"a":1},\n  {"a":2,}]',
        '<stdin>:2:10: malformed JSON: expected a double-quoted property name, found "}"',
        '{"a":1}\n',
      ],
      [
        '\ufeff[{"a":1},\n  {"a":2,,}]',
        '<stdin>:2:10: malformed JSON: expected a double-quoted property name, found ","',
        '{"a":1}\n',
      ],
      [
        '\ufeff{"a":1}\n{"a" 2}\n',
        '<stdin>:2:6: malformed JSON: expected \':\' after a property name, found "2"',
        '{"a":1}\n',
      ],
      [
        '{"a":"x\n"}\n',
        '<stdin>:1:8: malformed JSON: a line break inside a string (the string is not closed)',
      ],
      [
        '[{"a":1},\n{"a":',
        '<stdin>:2:6: malformed JSON: unexpected end of input: the value begun at 2:1 is not closed',
        '{"a":1}\n',
      ],
      ['[{"a":1},]', '<stdin>:1:10: malformed JSON: unexpected "]" after a comma', '{"a":1}\n'],
      [
        '[{"a":1},,{"a":2}]',
        '<stdin>:1:10: malformed JSON: unexpected "," where a record should be',
        '{"a":1}\n',
      ],
      [
        '[{"a":1}{"a":2}]',
        "<stdin>:1:9: malformed JSON: expected ',' or ']' between records",
        '{"a":1}\n',
      ],
    ];
    for (const [input, message, written = ''] of cases) {
      const run = await listkit(['filter', ''], input);
      expect(run.status, input).toBe(1);
      expect(run.stderr, input).toBe(`listkit: ${message}\n`);
      expect(run.stdout).toBe(written);
    }
    for (const input of [
      '\ufeff[{"a":1},{"a":2}]',
      '\ufeff{"a":1}\n{"a":2}\n',
      '\ufeff{"items":[{"a":1},{"a":2}]}',
    ]) {
      const run = await listkit(['filter', 'a = 2'], input);
      expect(run.stderr, input).toBe('');
      expect(run.stdout, input).toBe('{"a":2}\n');
    }
  }, 120_000);
});

describe('listkit filter never misses a match silently', () => {
  const ints = Array.from(
    { length: 20_000 },
    (_, i) => `{"name":"r${i}","x":${i % 2},"t":"2025-01-01T00:00:00Z"}`,
  ).join('\n');

  it('widens a type a later record disagrees with, saying so once', async () => {
    const later = `${ints}\n{"name":"late","x":2.5,"t":"soon"}\n{"name":"later","x":3.5,"t":"never"}\n`;
    const run = await listkit(['filter', 'x > 2 AND t:*'], later);
    expect(run.status).toBe(0);
    expect(names(run.stdout)).toEqual(['late', 'later']);
    expect(run.stderr).toBe(
      'listkit: notice: schema: field \'t\' holds a string ("soon") at <stdin>:20001:1: read as string (was timestamp) from here on\n',
    );
    const big = await listkit(
      ['filter', 'x > 1.5e6'],
      '{"name":"a","x":2000000}\n{"name":"b","x":1}\n',
    );
    expect(big.stderr).toBe('');
    expect(names(big.stdout)).toEqual(['a']);
  });

  it('reports a value the inferred type cannot read; --keep-going skips and counts it', async () => {
    const input = `${ints}\n{"name":"odd","x":"one"}\n`;
    const run = await listkit(['filter', 'x = 1'], input);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^listkit: <stdin>:20001:1: field 'x' holds a string \("one"\), which its type inferred from earlier records \(double\) cannot read; give --schema\n$/,
    );
    const kept = await listkit(['filter', 'x = 1', '--keep-going', '--output', 'count'], input);
    expect(kept.status).toBe(0);
    expect(kept.stdout).toBe('10000\n');
    expect(kept.stderr).toMatch(/1 record\(s\) skipped/);
  });

  it("guards --order-by fields as it guards the filter's: widened, or an error", async () => {
    // Inferred from the first two records: `t` a timestamp, `x` a number.
    const records = (...rows: [string, string, unknown][]) =>
      rows.map(([name, t, x]) => JSON.stringify({ name, t, x })).join('\n');
    const input = records(
      ['a', '2025-01-02T00:00:00Z', 2],
      ['b', '2025-01-01T00:00:00Z', 1],
      ['c', 'later', 3],
    );
    const sorted = await listkit(['filter', '', '--order-by', 't', '--sample-size', '2'], input);
    expect(sorted.status).toBe(0);
    // As text "later" sorts last; read as a timestamp it would have sorted first, as unset.
    expect(names(sorted.stdout)).toEqual(['b', 'a', 'c']);
    expect(sorted.stderr).toBe(
      'listkit: notice: schema: field \'t\' holds a string ("later") at <stdin>:3:1: read as string (was timestamp) from here on\n',
    );

    const text = await listkit(
      ['filter', '', '--order-by', 'x desc', '--sample-size', '2'],
      records(['a', 'x', 2], ['b', 'y', 1], ['c', 'z', 'three']),
    );
    expect(text.status).toBe(1);
    expect(text.stdout).toBe('');
    expect(text.stderr).toBe(
      'listkit: <stdin>:3:1: field \'x\' holds a string ("three"), which its type inferred from earlier records (double) cannot read; give --schema\n',
    );

    // A page of one keeps two candidates: the third record passes one over, and the fourth
    // cannot be widened without knowing where that one would now sort.
    const paged = records(
      ['a', '2025-01-02T00:00:00Z', 2],
      ['b', '2025-01-01T00:00:00Z', 1],
      ['c', '2025-01-03T00:00:00Z', 3],
      ['d', 'later', 4],
    );
    const args = ['filter', '', '--order-by', 't', '--page-size', '1', '--sample-size', '2'];
    const refused = await listkit(args, paged);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe(
      'listkit: <stdin>:4:1: field \'t\' holds a string ("later"): read as string (was timestamp), it could sort before matches --order-by has already passed over; give --schema\n',
    );
    const skipped = await listkit([...args, '--keep-going'], paged);
    expect(skipped.status).toBe(0);
    expect(names(skipped.stdout)).toEqual(['b']);
    expect(skipped.stderr).toMatch(/\(skipped; --keep-going\)\n.*1 record\(s\) skipped/s);
  });

  it('a filter naming a field the first records lack waits for the records that have it', async () => {
    // The field first appears after the records of the first chunk (but within --sample-size).
    const first = ints.split('\n').slice(0, 5000).join('\n');
    const run = await listkit(['filter', 'b = 2'], `${first}\n{"name":"z","b":2}\n`);
    expect(run.status).toBe(0);
    expect(names(run.stdout)).toEqual(['z']);
  });
});

describe('listkit filter: the small things', () => {
  it("reads a filter starting with '-' (AIP-160's NOT) as the filter", async () => {
    const input = '{"name":"a","region":"Europe"}\n{"name":"b","region":"Asia"}\n';
    for (const args of [
      ['filter', '-region:Europe'],
      ['filter', '--output', 'ndjson', '-region:Europe', '-'],
    ]) {
      const run = await listkit(args, input);
      expect(run.stderr).toBe('');
      expect(names(run.stdout)).toEqual(['b']);
    }
    expect((await listkit(['filter', '--nope'], input)).status).toBe(2);
  });

  it('--output table shows every scalar column, and nothing when nothing matches', async () => {
    const wide = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`c${i}`, i]));
    const run = await listkit(
      ['filter', '', '--output', 'table'],
      JSON.stringify({ name: 'a', ...wide }),
    );
    expect(run.stdout.split('\n')[0]).toBe(['name', ...Object.keys(wide)].join('  '));
    const none = await listkit(
      ['filter', 'c1 = 99', '--output', 'table'],
      JSON.stringify({ name: 'a', ...wide }),
    );
    expect(none.stdout).toBe('');
  });

  it('--fields with an unknown path is bad usage, not {}', async () => {
    const run = await listkit(['filter', '', '--fields', 'nmae'], ndjson);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/--fields: .*unknown field 'nmae'; did you mean 'name'\?/s);
  });

  it("--fields reads the fields parameter's syntax and AIP-161 paths, the emulator's reader", async () => {
    const size5 = ['filter', 'size = 5'];
    const dotted = await listkit([...size5, '--fields', 'name,labels.team'], ndjson);
    const nested = await listkit([...size5, '--fields', 'name, labels(team)'], ndjson);
    const slash = await listkit([...size5, '--fields', 'name,labels/team'], ndjson);
    expect(JSON.parse(dotted.stdout)).toEqual({ name: 'web-05', labels: { team: 'core' } });
    expect(nested.stdout).toBe(dotted.stdout);
    expect(slash.stdout).toBe(dotted.stdout);
    // Every value of a map, every element of a repeated field.
    const star = await listkit([...size5, '--fields', 'labels.*,ports'], ndjson);
    expect(JSON.parse(star.stdout)).toEqual({
      labels: { env: 'prod', team: 'core' },
      ports: ['8005'],
    });
    // Table columns in the order written, sub-selections spelt out.
    const table = await listkit(
      [...size5, '--output', 'table', '--fields', 'size,labels(team,env),name'],
      ndjson,
    );
    expect(table.stdout.split('\n')[0]).toMatch(/^size\s+labels\.team\s+labels\.env\s+name$/);
    expect(table.stdout.split('\n')[1]).toMatch(/^5\s+core\s+prod\s+web-05$/);
    // Bad syntax and an index into a repeated field: bad usage, with the place shown.
    const open = await listkit(['filter', '', '--fields', 'name,labels(team'], ndjson);
    expect(open.status).toBe(2);
    expect(open.stderr).toMatch(/--fields: .*\^.*expected '\)'/s);
    const index = await listkit(['filter', '', '--fields', 'ports.0'], ndjson);
    expect(index.status).toBe(2);
    expect(index.stderr).toMatch(/--fields: /);
  });

  it('--help states each default once; a token of another listing speaks of files', async () => {
    const help = await listkit(['filter', '--help']);
    expect(help.stdout).not.toMatch(/\(default 10000\)/);
    expect(help.stdout).toMatch(/--sample-size <n> .*\(default: 10000\)/s);
    const path = file('paged.ndjson', ndjson);
    const first = await listkit(['filter', '', path, '--page-size', '2']);
    const token = /nextPageToken: (\S+)/.exec(first.stderr)?.[1] ?? '';
    const other = await listkit([
      'filter',
      'size > 1',
      path,
      '--page-size',
      '2',
      '--page-token',
      token,
    ]);
    expect(other.status).toBe(2);
    expect(other.stderr).not.toMatch(/parent/);
    expect(other.stderr).toMatch(/the filter, --order-by and files must stay the same/);
  });
});
