// `listkit conform` as users run it: the real command as a child process against the emulator,
// which passes every check, and against stand-in servers each with one bug, which fail the check
// meant to catch it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inferSchema } from '@listkit/query';
import { createEmulator, type Emulator, sampleForwardingRules } from '@listkit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleServiceModule } from '../support/bundle-service.js';
import { type Bug, books, startStandIn } from '../support/list-stand-in.js';
import { type Run, runListkit } from '../support/run-listkit.js';

const _root = fileURLToPath(new URL('../..', import.meta.url));
let cli: { file: string; dispose: () => void } | undefined;

interface Report {
  target: { url: string; items: number; requests: number };
  checks: {
    group: string;
    name: string;
    status: string;
    cause: string;
    details?: { onlyServer: string[]; onlyListkit: string[]; explanation: string[] };
    curl?: string;
  }[];
  summary: {
    pass: number;
    fail: number;
    skip: number;
    notSupported: number;
    consequences: number;
    ok: boolean;
    stopped?: string;
  };
}

function listkit(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return runListkit(cli?.file ?? '', args, { env });
}

async function conform(args: string[], env?: Record<string, string>) {
  const run = await listkit(['conform', ...args, '--json'], env);
  return { run, report: JSON.parse(run.stdout) as Report };
}

const failed = (report: Report) =>
  report.checks.filter((c) => c.status === 'FAIL').map((c) => `${c.group}: ${c.name}`);

beforeAll(async () => {
  cli = await bundleServiceModule('packages/cli/src/main.ts');
}, 60_000);

afterAll(() => {
  cli?.dispose();
});

describe('listkit conform against the emulator', () => {
  let emulator: Emulator;
  let url: string;
  beforeAll(async () => {
    emulator = await createEmulator({
      seed: {
        forwardingRules: sampleForwardingRules(40, { project: 'p' }).map((rule) => ({
          project: 'p',
          region: 'us-central1',
          rule,
        })),
      },
    });
    url = `${await emulator.listen(0, '127.0.0.1')}/compute/v1/projects/p/regions/us-central1/forwardingRules`;
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it('passes every check in the compute style (orderBys Compute refuses are not supported)', async () => {
    const { run, report } = await conform(
      [url, '--style', 'compute', '--bearer-env', 'CONFORM_TOKEN'],
      {
        CONFORM_TOKEN: 'any',
      },
    );
    expect(failed(report)).toEqual([]);
    expect(run.status).toBe(0);
    expect(report.summary.ok).toBe(true);
    expect(report.target.items).toBe(40);
    const groups = (g: string) => report.checks.filter((c) => c.group === g && c.status === 'PASS');
    expect(groups('paging').length).toBe(11);
    expect(groups('filter').length).toBeGreaterThanOrEqual(30);
    expect(groups('ordering').map((c) => c.name)).toEqual([
      'orderBy "name"',
      'orderBy "creationTimestamp desc"',
    ]);
    // Partial responses pass; Compute has no skip: refused, so "not supported".
    expect(groups('partial').map((c) => c.cause)).toEqual([
      expect.stringMatching(/^fields=items\(name,labels\),nextPageToken: 2 items as listkit/),
      expect.stringMatching(/^6 pages with fields=items\(name,labels\),nextPageToken, same items$/),
      expect.stringMatching(/^fields=items\(name,listkitNoSuchField\): 400/),
    ]);
    const skips = report.checks.filter((c) => c.group === 'skip');
    expect(skips.map((c) => c.status)).toEqual(['SKIP']);
    expect(skips[0]!.cause).toMatch(/^not supported: 400.*Cannot bind query parameter/);
    // Every kind of generated filter was tried.
    const filters = report.checks.filter((c) => c.group === 'filter').map((c) => c.name);
    for (const shape of [/ eq "[^"]*\.\*"/, /:\*$/, / AND /, / OR /, /^NOT /, / > /, / != /]) {
      expect(filters.some((f) => shape.test(f))).toBe(true);
    }
  }, 60_000);

  it('prints a text report and names the bearer variable, not the token, in curl commands', async () => {
    const run = await listkit(
      ['conform', url, '--bearer-env', 'CONFORM_TOKEN', '--max-filters', '3'],
      // NO_COLOR unset: stdout is a pipe, so no colour either.
      { CONFORM_TOKEN: 'sekrit', NO_COLOR: '' },
    );
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Paging (AIP-158)');
    expect(run.stdout).toMatch(/PASS {2}a corrupted token is refused/);
    expect(run.stdout).toMatch(/^OK: /m);
    expect(run.stdout).not.toContain('\x1b[');
    expect(run.stdout).not.toContain('sekrit');
  }, 60_000);

  it('stops with status 3 and a clear message when --max-requests is reached', async () => {
    const { run, report } = await conform([
      url,
      '--header',
      'Authorization: Bearer any',
      '--max-requests',
      '20',
    ]);
    expect(run.status).toBe(3);
    expect(report.summary.ok).toBe(false);
    expect(report.summary.stopped).toMatch(/--max-requests 20 reached/);
    expect(report.target.requests).toBe(20);
    expect(run.stderr).toMatch(/--max-requests 20 reached/);
  }, 60_000);

  it('stops with status 3 when the listing itself is refused (no credentials)', async () => {
    const { run, report } = await conform([url]);
    expect(run.status).toBe(3);
    expect(report.summary.stopped).toMatch(/refused: 401/);
  }, 60_000);
});

describe('listkit conform catches a broken server', () => {
  it('passes a correct AIP server; filters it refuses are "not supported", not failures', async () => {
    const server = await startStandIn({ refuse: /^NOT / });
    try {
      const { run, report } = await conform([server.url, '--dialect', 'aip']);
      expect(failed(report)).toEqual([]);
      expect(run.status).toBe(0);
      const refused = report.checks.filter((c) => c.cause.startsWith('not supported'));
      expect(refused.length).toBeGreaterThan(0);
      expect(refused.every((c) => c.status === 'SKIP' && c.name.startsWith('NOT '))).toBe(true);
      expect(report.summary.notSupported).toBe(refused.length);
      // Every ordering applies to this server.
      expect(
        report.checks.filter((c) => c.group === 'ordering' && c.status === 'PASS').length,
      ).toBe(5);
      // It has partial responses and skip: every check of both runs and passes.
      const passed = (group: string) =>
        report.checks.filter((c) => c.group === group && c.status === 'PASS').map((c) => c.name);
      expect(passed('partial')).toEqual([
        'fields keeps exactly the selected paths',
        "a walk with fields gives the default walk's items",
        'fields naming a field that cannot exist is refused',
      ]);
      expect(passed('skip')).toEqual([
        'skip N starts the page at item N+1',
        'the page token carries the skip on',
        'skip with a page token skips from the token',
        'skip past the end is an empty page with no token',
        'a negative skip is refused',
      ]);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('reports partial responses as "not supported" when an AIP server ignores fields', async () => {
    const server = await startStandIn({ bug: 'fields-ignored' });
    try {
      const { run, report } = await conform([server.url, '--dialect', 'aip']);
      expect(failed(report)).toEqual([]);
      expect(run.status).toBe(0);
      const partial = report.checks.filter((c) => c.group === 'partial');
      expect(partial.map((c) => [c.status, c.cause])).toEqual([
        [
          'SKIP',
          expect.stringMatching(/^not supported: the server ignores fields=books\(name,labels\)/),
        ],
      ]);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('fails a filter answered 500: only 400 and 501 mean "not supported"', async () => {
    const server = await startStandIn({ refuse: /^NOT /, refuseStatus: 500 });
    try {
      const { run, report } = await conform([server.url, '--dialect', 'aip']);
      expect(run.status).toBe(1);
      const failures = report.checks.filter((c) => c.status === 'FAIL');
      expect(failures.length).toBeGreaterThan(0);
      expect(failures.every((c) => c.group === 'filter' && c.name.startsWith('NOT '))).toBe(true);
      expect(failures[0]!.cause).toMatch(/^page 1 answered 500 INTERNAL/);
      expect(report.summary.notSupported).toBe(0);
    } finally {
      await server.close();
    }
  }, 60_000);

  it("shows the server's text with control characters and bidi overrides escaped", async () => {
    const server = await startStandIn({
      refuse: /^NOT /,
      refuseMessage: 'no \u001b[2J\u001b]0;owned\u0007 NOT \u202e here',
    });
    try {
      const run = await listkit(['conform', server.url, '--dialect', 'aip']);
      expect(run.status).toBe(0);
      expect(run.stdout).toContain('not supported by the server:\n');
      expect(run.stdout).toContain('400 INVALID_ARGUMENT: no \\u001b[2J');
      expect(run.stdout).toContain('\\u202e');
      expect(run.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('takes the schema from --schema, as listkit filter does', async () => {
    const server = await startStandIn();
    const dir = mkdtempSync(join(tmpdir(), 'listkit-conform-'));
    try {
      const schema = join(dir, 'books.schema.json');
      writeFileSync(schema, JSON.stringify(inferSchema(books, { sampleSize: books.length })));
      const { run, report } = await conform([
        server.url,
        '--dialect',
        'aip',
        '--schema',
        schema,
        '--max-filters',
        '5',
      ]);
      expect(failed(report)).toEqual([]);
      expect(run.status).toBe(0);
      expect(report.target).toMatchObject({ items: 40, schemaKey: 'name' });
      const missing = await listkit(['conform', server.url, '--schema', join(dir, 'none.json')]);
      expect(missing.status).toBe(2);
      expect(missing.stderr).toMatch(/--schema .*none\.json/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await server.close();
    }
  }, 60_000);

  it('passes an empty collection given a schema; without one, the run stops', async () => {
    const server = await startStandIn({ data: [] });
    const dir = mkdtempSync(join(tmpdir(), 'listkit-conform-'));
    try {
      const schema = join(dir, 'books.schema.json');
      writeFileSync(schema, JSON.stringify(inferSchema(books, { sampleSize: books.length })));
      const { run, report } = await conform([server.url, '--dialect', 'aip', '--schema', schema]);
      expect(failed(report)).toEqual([]);
      expect(run.status).toBe(0);
      const check = (name: string) => report.checks.find((c) => c.name === name)!;
      expect(check('no empty page')).toMatchObject({
        status: 'PASS',
        cause: 'the listing is empty: one empty page',
      });
      expect(check('a corrupted token is refused').status).toBe('SKIP');
      const inferred = await conform([server.url, '--dialect', 'aip']);
      expect(inferred.run.status).toBe(3);
      expect(inferred.report.summary.stopped).toMatch(/the listing is empty.*give --schema/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await server.close();
    }
  }, 60_000);

  it('generates the same filters for the same seed, and others for another', async () => {
    const server = await startStandIn();
    try {
      const filters = async (seed: string) =>
        (
          await conform([server.url, '--dialect', 'aip', '--max-filters', '10', '--seed', seed])
        ).report.checks
          .filter((c) => c.group === 'filter')
          .map((c) => c.name);
      const first = await filters('7');
      expect(first).toHaveLength(10);
      expect(await filters('7')).toEqual(first);
      expect(await filters('8')).not.toEqual(first);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('refuses bad usage with status 2', async () => {
    const bad = await listkit(['conform', 'http://127.0.0.1:9/x', '--header', 'no colon']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--header 'no colon': expected 'Name: value'/);
    const url = await listkit(['conform', 'ftp://example.com/x']);
    expect(url.status).toBe(2);
    const unset = await listkit([
      'conform',
      'http://127.0.0.1:9/x',
      '--bearer-env',
      'LISTKIT_CONFORM_UNSET',
    ]);
    expect(unset.status).toBe(2);
    expect(unset.stderr).toMatch(/LISTKIT_CONFORM_UNSET: not set/);
  }, 60_000);

  it('requests only the given URL, keeping its own query parameters (also under --rate)', async () => {
    const server = await startStandIn();
    try {
      const { run, report } = await conform([
        `${server.url}?alt=json`,
        '--dialect',
        'aip',
        '--max-filters',
        '5',
        '--rate',
        '1000',
      ]);
      expect(run.status).toBe(0);
      expect(server.requests.length).toBe(report.target.requests);
      for (const request of server.requests) {
        const url = new URL(request, 'http://x');
        expect(url.pathname).toBe('/v1/shelves/1/books');
        expect(url.searchParams.get('alt')).toBe('json');
        expect(
          [...url.searchParams.keys()].every((k) =>
            ['alt', 'filter', 'orderBy', 'pageSize', 'pageToken', 'fields', 'skip'].includes(k),
          ),
        ).toBe(true);
      }
    } finally {
      await server.close();
    }
  }, 60_000);

  it('stops with status 3 when a request times out', async () => {
    const server = await startStandIn({ hang: true });
    try {
      const { run, report } = await conform([server.url, '--dialect', 'aip', '--timeout', '1']);
      expect(run.status).toBe(3);
      expect(report.summary.stopped).toMatch(/timed out/);
      // Only the check that writes, not run since not asked for.
      expect(report.checks.map((c) => `${c.group} ${c.status}`)).toEqual(['mutate SKIP']);
    } finally {
      await server.close();
    }
  }, 60_000);

  const cases: [Bug, string, string[]][] = [
    ['skip', "paging: walk with page size 2 gives the default walk's items in order", ['filter']],
    ['repeat', 'paging: no item comes twice', ['filter']],
    ['ignore-page-size', 'paging: page size honoured', ['filter', 'ordering']],
    [
      'token-ignores-filter',
      'paging: a token is refused when the filter changes',
      ['filter', 'ordering'],
    ],
    ['desc-as-asc', 'ordering: orderBy "name desc"', ['filter']],
    ['empty-last-page', 'paging: no empty page', ['filter', 'ordering']],
    [
      'fields-drops-token',
      'partial: fields keeps exactly the selected paths',
      ['paging', 'filter', 'ordering', 'skip'],
    ],
    [
      'skip-ignores-token',
      'skip: skip with a page token skips from the token',
      ['paging', 'filter', 'ordering', 'partial'],
    ],
    [
      'skip-not-carried',
      'skip: the page token carries the skip on',
      ['paging', 'filter', 'ordering', 'partial'],
    ],
    [
      'negative-skip-accepted',
      'skip: a negative skip is refused',
      ['paging', 'filter', 'ordering', 'partial'],
    ],
  ];
  it.each(cases)(
    'bug %s fails %j (and nothing in %j)',
    async (bug, check, clean) => {
      const server = await startStandIn({ bug });
      try {
        const { run, report } = await conform([
          server.url,
          '--dialect',
          'aip',
          '--items-field',
          'books',
        ]);
        expect(run.status).toBe(1);
        expect(failed(report)).toContain(check);
        for (const group of clean) {
          expect(failed(report).filter((f) => f.startsWith(`${group}:`))).toEqual([]);
        }
        const failure = report.checks.find((c) => `${c.group}: ${c.name}` === check)!;
        expect(failure.curl).toMatch(/^curl -sS 'http:\/\/127\.0\.0\.1:\d+\/v1\/shelves\/1\/books/);
      } finally {
        await server.close();
      }
    },
    60_000,
  );

  it('names a full listing that skips items as the cause, and the failures that follow as its consequences', async () => {
    // Issue 31: the last item of every page but the last is left out, the full listing's too.
    const server = await startStandIn({ bug: 'drop-last-of-page', defaultPageSize: 10 });
    try {
      const { run, report } = await conform([server.url, '--dialect', 'aip']);
      expect(run.status).toBe(1);
      expect(report.target.items).toBe(37);
      const cause = report.checks[0]!;
      expect(cause).toMatchObject({
        group: 'paging',
        name: 'the full listing lists every item once',
        status: 'FAIL',
        details: { rootCause: true, repeated: [] },
      });
      const dropped = ['b009', 'b019', 'b029'].map((b) => `shelves/1/books/${b}`);
      expect((cause.details as unknown as { skipped: string[] }).skipped).toEqual(dropped);
      expect(cause.cause).toContain(
        `it skipped 3 items that walks with page size 7 list: ${dropped[0]} (between pages 1 and 2), ${dropped[1]} (between pages 2 and 3), ${dropped[2]} (between pages 3 and 4)`,
      );
      // Every failure of a check comparing with the listing (filter, ordering, partial, skip) is
      // marked as following from it; paging failures are not.
      const fails = report.checks.filter((c) => c.status === 'FAIL');
      const marked = fails.filter((c) => c.details && 'consequenceOf' in c.details);
      expect(marked.length).toBeGreaterThan(0);
      expect(marked).toEqual(fails.filter((c) => c.group !== 'paging'));
      for (const check of marked) {
        expect(check.details).toMatchObject({
          consequenceOf: 'paging: the full listing lists every item once',
        });
      }
      expect(report.summary.consequences).toBe(marked.length);
      // The text report says it first, and marks each consequence.
      const text = await listkit(['conform', server.url, '--dialect', 'aip']);
      expect(text.status).toBe(1);
      const lines = text.stdout.split('\n');
      expect(lines[3]).toMatch(/^Cause: the full listing/);
      expect(lines[4]).toMatch(/^ {2}FAIL {2}the full listing lists every item once: it skipped 3/);
      expect(lines.filter((l) => l.endsWith('[follows from the full listing]')).length).toBe(
        marked.length,
      );
      expect(text.stdout).toMatch(
        new RegExp(`failed \\(${marked.length} follow from the full listing\\)`),
      );
    } finally {
      await server.close();
    }
  }, 60_000);

  it('passes the full listing check of a correct server, and marks nothing', async () => {
    const server = await startStandIn({ defaultPageSize: 10 });
    try {
      const { run, report } = await conform([server.url, '--dialect', 'aip', '--max-filters', '5']);
      expect(run.status).toBe(0);
      expect(report.checks[0]).toMatchObject({
        name: 'the full listing lists every item once',
        status: 'PASS',
      });
      expect(report.summary.consequences).toBe(0);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('bug has-as-equality fails only the filters with ":" on the repeated field, with an explanation', async () => {
    const server = await startStandIn({ bug: 'has-as-equality' });
    try {
      const { run, report } = await conform([server.url, '--dialect', 'aip']);
      expect(run.status).toBe(1);
      const failures = report.checks.filter((c) => c.status === 'FAIL');
      expect(failures.length).toBeGreaterThan(0);
      expect(failures.every((c) => c.group === 'filter' && c.name.startsWith('tags:'))).toBe(true);
      const [first] = failures;
      expect(first!.details!.onlyListkit.length).toBeGreaterThan(0);
      expect(first!.details!.onlyServer).toEqual([]);
      expect(first!.details!.explanation.join('\n')).toMatch(/^holds: /);
      expect(first!.curl).toContain('filter=tags');
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('listkit conform --mutate', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'listkit-conform-mutate-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const recipeFile = (recipe: unknown) => {
    const file = join(dir, `recipe-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(recipe));
    return file;
  };
  const mutateCheck = (report: Report) => report.checks.find((c) => c.group === 'mutate');
  const bookRecipe = {
    create: { method: 'POST', url: '{{collection}}?bookId={{name}}', body: { title: 'made' } },
    delete: { method: 'DELETE', url: '{{collection}}/{{name}}' },
    key: 'shelves/1/books/{{name}}',
    wait: { url: '{{collection}}/{{name}}', attempts: 5, intervalMs: 10 },
  };

  it('passes the emulator (compute) and leaves no item it created', async () => {
    const emulator = await createEmulator({
      seed: {
        forwardingRules: sampleForwardingRules(40, { project: 'p' }).map((rule) => ({
          project: 'p',
          region: 'us-central1',
          rule,
        })),
      },
    });
    try {
      const url = `${await emulator.listen(0, '127.0.0.1')}/compute/v1/projects/p/regions/us-central1/forwardingRules`;
      const recipe = recipeFile({
        create: {
          method: 'POST',
          url: '{{collection}}',
          body: { name: '{{name}}', IPProtocol: 'TCP' },
        },
        delete: { method: 'DELETE', url: '{{collection}}/{{name}}' },
        wait: { url: '{{collection}}/{{name}}', attempts: 10, intervalMs: 20 },
      });
      const auth = ['--header', 'Authorization: Bearer any'];
      const { run, report } = await conform([
        url,
        ...auth,
        '--max-filters',
        '3',
        '--mutate',
        recipe,
      ]);
      expect(failed(report)).toEqual([]);
      expect(run.status).toBe(0);
      const check = mutateCheck(report)!;
      expect(check.status).toBe('PASS');
      expect((check.details as unknown as { events: string[] }).events.length).toBe(4);
      const listing = await fetch(`${url}?maxResults=500`, {
        headers: { authorization: 'Bearer any' },
      });
      const names = ((await listing.json()) as { items: { name: string }[] }).items.map(
        (i) => i.name,
      );
      expect(names.length).toBe(40);
      expect(names.some((n) => n.startsWith('listkit-conform-'))).toBe(false);
    } finally {
      await emulator.close();
    }
  }, 60_000);

  it('passes a keyset-paging stand-in, fails an offset-paging one, and cleans up both', async () => {
    for (const bug of [undefined, 'offset-paging'] as const) {
      const server = await startStandIn(bug ? { bug } : {});
      try {
        const { run, report } = await conform([
          server.url,
          '--dialect',
          'aip',
          '--max-filters',
          '3',
          '--mutate',
          recipeFile(bookRecipe),
        ]);
        const check = mutateCheck(report)!;
        if (bug) {
          expect(failed(report)).toEqual([
            'mutate: a walk while items are created and deleted around its cursor',
          ]);
          expect(run.status).toBe(1);
          expect(check.cause).toMatch(/missing shelves\/1\/books\/listkit-conform-\w+-b\d/);
          expect(check.cause).toMatch(/twice/);
        } else {
          expect(failed(report)).toEqual([]);
          expect(run.status).toBe(0);
          expect(check.status).toBe('PASS');
        }
        expect(server.items().map((b) => b.name)).toEqual(books.map((b) => b.name));
        // Every delete named an item this run created.
        const deletes = server.requests.filter((r) => r.startsWith('DELETE '));
        expect(deletes.length).toBe(10);
        expect(deletes.every((r) => r.includes('/books/listkit-conform-'))).toBe(true);
      } finally {
        await server.close();
      }
    }
  }, 60_000);

  it('is not run unless asked, and the report says so; nothing is written', async () => {
    const server = await startStandIn();
    try {
      const { run, report } = await conform([server.url, '--dialect', 'aip', '--max-filters', '3']);
      expect(run.status).toBe(0);
      expect(mutateCheck(report)).toMatchObject({ status: 'SKIP' });
      expect(mutateCheck(report)!.cause).toMatch(/not run.*--mutate/);
      expect(server.requests.every((r) => !/^(POST|DELETE) /.test(r))).toBe(true);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('cleans up when the run stops part-way (--max-requests), within the budget', async () => {
    // The read-only checks take about 165 requests here: one budget runs out among the creates
    // before the walk, the other in the walk.
    for (const budget of [170, 190]) {
      const server = await startStandIn();
      try {
        const { run, report } = await conform([
          server.url,
          '--dialect',
          'aip',
          '--max-filters',
          '3',
          '--max-requests',
          String(budget),
          '--mutate',
          recipeFile(bookRecipe),
        ]);
        expect(run.status).toBe(3);
        expect(report.summary.stopped).toMatch(new RegExp(`--max-requests ${budget} reached`));
        expect(report.target.requests).toBeLessThanOrEqual(budget);
        expect(server.requests.length).toBeLessThanOrEqual(budget);
        expect(server.items().map((b) => b.name)).toEqual(books.map((b) => b.name));
        // One delete per create sent, no more.
        const sent = (m: string) => server.requests.filter((r) => r.startsWith(`${m} `)).length;
        expect(sent('POST')).toBeGreaterThan(0);
        expect(sent('DELETE')).toBe(sent('POST'));
        expect(mutateCheck(report)).toMatchObject({
          status: 'SKIP',
          cause: 'not finished: the run stopped',
        });
      } finally {
        await server.close();
      }
    }
  }, 60_000);

  it('cleans up past --max-time: a create that outlives the deadline is still deleted', async () => {
    // The first create is stored but never answered: the run stops at the deadline, and the
    // delete of that item still goes out.
    const server = await startStandIn({ stallCreates: true });
    try {
      const { run, report } = await conform([
        server.url,
        '--dialect',
        'aip',
        '--max-filters',
        '1',
        '--max-time',
        '15',
        '--mutate',
        recipeFile(bookRecipe),
      ]);
      expect(run.status).toBe(3);
      expect(report.summary.stopped).toMatch(/--max-time 15 reached/);
      expect(server.requests.filter((r) => r.startsWith('POST '))).toHaveLength(1);
      expect(server.requests.filter((r) => r.startsWith('DELETE '))).toHaveLength(1);
      expect(server.items().map((b) => b.name)).toEqual(books.map((b) => b.name));
    } finally {
      await server.close();
    }
  }, 90_000);

  it('refuses a bad recipe with status 2', async () => {
    const server = await startStandIn();
    try {
      const bad = recipeFile({
        create: { url: '{{collection}}', body: {} },
        delete: { url: '{{collection}}' },
      });
      const run = await listkit(['conform', server.url, '--dialect', 'aip', '--mutate', bad]);
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/delete\.url' must contain \{\{name\}\}/);
      const elsewhere = recipeFile({
        ...bookRecipe,
        create: { url: 'http://127.0.0.2:9/books?bookId={{name}}', body: {} },
      });
      const away = await listkit([
        'conform',
        server.url,
        '--dialect',
        'aip',
        '--mutate',
        elsewhere,
      ]);
      expect(away.status).toBe(2);
      expect(away.stderr).toMatch(
        /'create\.url' is on http:\/\/127\.0\.0\.2:9, not on the target's/,
      );
      expect(server.requests).toEqual([]);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('stops when a create is refused, and deletes nothing it did not create', async () => {
    const server = await startStandIn();
    try {
      // POST to an item URL: the stand-in answers 405, so nothing is created.
      const recipe = recipeFile({
        ...bookRecipe,
        create: { url: '{{collection}}/{{name}}', body: {} },
      });
      const { run, report } = await conform([
        server.url,
        '--dialect',
        'aip',
        '--max-filters',
        '3',
        '--mutate',
        recipe,
      ]);
      expect(run.status).toBe(3);
      expect(report.summary.stopped).toMatch(/creating listkit-conform-\w+-b0 answered 405/);
      expect(server.requests.filter((r) => r.startsWith('DELETE '))).toEqual([]);
      expect(server.items().length).toBe(40);
    } finally {
      await server.close();
    }
  }, 60_000);
});
