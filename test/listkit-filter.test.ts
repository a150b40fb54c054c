// `listkit filter` as users run it: the real command as a child process, over files and stdin.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleServiceModule } from './support/bundle-service.js';

const root = fileURLToPath(new URL('..', import.meta.url));
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
  cli = await bundleServiceModule('packages/cli/src/cli.ts');
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
    const schema = await listkit(['filter', '', path(), '--print-schema']);
    expect(JSON.parse(schema.stdout)).toMatchObject({
      key: 'name',
      fields: {
        creationTimestamp: { kind: 'timestamp' },
        labels: { kind: 'map' },
        size: { kind: 'int64' },
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

  it('malformed NDJSON names file, line and column and prints nothing', async () => {
    const lines = ndjson.split('\n');
    lines.splice(3, 0, '{"name": "x", oops}');
    const path = file('bad.ndjson', lines.join('\n'));
    const run = await listkit(['filter', '', path]);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(new RegExp(`${path}:4:15: malformed JSON`));

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
    let peak = 0;
    const readPeak = () => {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        peak = Math.max(peak, Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0));
      } catch {
        // exited
      }
    };
    const poll = setInterval(readPeak, 50);
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    const batch = 10_000;
    for (let start = 0; start < lines; start += batch) {
      let text = '';
      for (let i = start; i < start + batch; i++) {
        text += `{"name":"r${i}","labels":{"env":"${i % 7 === 0 ? 'prod' : 'dev'}"},"size":${i % 1000},"createTime":"2025-01-01T00:00:00Z","note":"${'n'.repeat(40)}"}\n`;
      }
      readPeak();
      if (!child.stdin.write(text)) await new Promise((r) => child.stdin.once('drain', r));
    }
    readPeak();
    child.stdin.end();
    const status = await closed;
    clearInterval(poll);
    expect(status).toBe(0);
    return { stdout, peakMiB: peak / 1024 };
  }

  // Three million records (about 400 MB): held in memory they would take gigabytes.
  it('streams NDJSON in bounded memory, counting or ordering a page', async () => {
    const counted = await peakRss(['filter', 'labels.env = prod', '--output', 'count'], 3_000_000);
    expect(counted.stdout).toBe(`${Math.ceil(3_000_000 / 7)}\n`);
    expect(counted.peakMiB).toBeLessThan(160);

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
    expect(top.peakMiB).toBeLessThan(160);
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
