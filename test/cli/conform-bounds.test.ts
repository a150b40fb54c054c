// `listkit conform` against servers that attack their client: every response is bounded (a cap
// named in the message, gzip inflated under the same cap), nesting is bounded without recursion,
// the whole run has a deadline, credentials in the URL are refused unprinted, and network
// failures are named. Each run is the real command as a child process; its peak RSS is read by
// the child itself as it exits (test/support/peak-rss-on-exit.cjs).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleServiceModule } from '../support/bundle-service.js';
import { type Hostility, startHostileServer } from '../support/hostile-server.js';
import { type Run, runListkit } from '../support/run-listkit.js';

let cli: { file: string; dispose: () => void } | undefined;
beforeAll(async () => {
  cli = await bundleServiceModule('packages/cli/src/main.ts');
}, 60_000);
afterAll(() => {
  cli?.dispose();
});

/** The bound this suite states for the peak RSS of a conform run against a hostile server. */
const PEAK_RSS_LIMIT = 512 * 1024 * 1024;

const conform = (args: string[], measureRss = false): Promise<Run> =>
  runListkit(cli?.file ?? '', ['conform', ...args], { measureRss });

/** Ended by its documented status with a message of ours: no stack trace, no bare fetch error. */
function expectStopped(run: Run, message: RegExp): void {
  expect(run.stderr).toMatch(message);
  expect(run.stderr).not.toMatch(/^\s+at /m);
  expect(run.stderr).not.toMatch(/fetch failed|RangeError|ERR_OUT_OF_RANGE/);
  expect(run.status).toBe(3);
}

describe('listkit conform bounds every response', () => {
  const capped: [Hostility, RegExp][] = [
    ['huge-body', /a response body larger than 16 MiB \(--max-response-size\)/],
    ['gzip-bomb', /a response body larger than 16 MiB \(--max-response-size\), inflated from gzip/],
    ['endless-chunked', /a response body larger than 16 MiB \(--max-response-size\)/],
  ];
  it.each(capped)(
    '%s: stops at the cap, within the stated peak RSS',
    async (mode, message) => {
      const server = await startHostileServer(mode);
      try {
        const run = await conform([server.url, '--timeout', '20'], true);
        expectStopped(run, message);
        expect(run.stderr).toMatch(/^listkit: conform: GET http:\/\/127\.0\.0\.1:\d+\//m);
        expect(run.peakRss).toBeLessThan(PEAK_RSS_LIMIT);
      } finally {
        await server.close();
      }
    },
    60_000,
  );

  it('takes a larger response when --max-response-size is raised', async () => {
    const server = await startHostileServer('huge-body');
    try {
      const run = await conform([server.url, '--max-response-size', '32'], true);
      expectStopped(run, /a response body larger than 32 MiB \(--max-response-size\)/);
      expect(run.peakRss).toBeLessThan(PEAK_RSS_LIMIT);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('bounds the listing, counting what its objects cost beyond their text', async () => {
    const server = await startHostileServer('tiny-objects');
    try {
      const run = await conform([server.url], true);
      expectStopped(run, /the listing is larger than 16 MiB \(--max-listing-size\) after 3 pages/);
      expect(run.peakRss).toBeLessThan(PEAK_RSS_LIMIT);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('refuses an item nested 100,000 deep with a located message, status 3', async () => {
    const server = await startHostileServer('deep-item');
    try {
      const run = await conform([server.url], true);
      expectStopped(
        run,
        /nested too deep: more than 100 levels \(--max-depth\) at line 1, column 127 of the body/,
      );
      expect(run.peakRss).toBeLessThan(PEAK_RSS_LIMIT);
      // The bound is an option like the others: its value moves the column it stops at.
      const raised = await conform([server.url, '--max-depth', '1000'], true);
      expectStopped(raised, /more than 1000 levels \(--max-depth\) at line 1, column 1027 /);
      const refused = await conform([server.url, '--max-depth', '1001']);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toMatch(/--max-depth must be a positive integer \(at most 1000\)/);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('listkit conform has a deadline', () => {
  it('stops a run of slow endless pages at --max-time, though each page beats --timeout', async () => {
    const server = await startHostileServer('slow-endless-pages', { delayMs: 500 });
    try {
      const run = await conform([server.url, '--max-time', '2', '--timeout', '20']);
      expectStopped(run, /--max-time 2 reached/);
      // At 500 ms a page, 2 s hold a handful of pages (not the 2000 of --max-requests).
      expect(server.requests()).toBeLessThan(10);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('refuses a --max-time that is not a positive number of seconds', async () => {
    const run = await conform(['http://127.0.0.1:9/x', '--max-time', '0']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--max-time must be a positive integer/);
  }, 60_000);
});

describe('listkit conform names what went wrong on the network', () => {
  const failures: [Hostility, RegExp][] = [
    ['reset', /ECONNRESET: the connection was reset/],
    ['header-overflow', /UND_ERR_HEADERS_OVERFLOW: the response headers are too large/],
  ];
  it.each(failures)(
    '%s',
    async (mode, message) => {
      const server = await startHostileServer(mode);
      try {
        expectStopped(await conform([server.url]), message);
      } finally {
        await server.close();
      }
    },
    60_000,
  );

  it('does not follow a redirect to another host', async () => {
    let elsewhere = 0;
    const away = createServer((_req, res) => {
      elsewhere++;
      res.end('{"items":[]}');
    });
    await new Promise<void>((resolve) => away.listen(0, '127.0.0.1', resolve));
    const awayPort = (away.address() as AddressInfo).port;
    const redirecting = createServer((_req, res) => {
      res.writeHead(302, { location: `http://localhost:${awayPort}/x` }).end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    const port = (redirecting.address() as AddressInfo).port;
    try {
      const run = await conform([`http://127.0.0.1:${port}/v1/things`]);
      expectStopped(run, /the listing itself was refused: 302/);
      expect(elsewhere).toBe(0);
    } finally {
      away.close();
      redirecting.close();
    }
  }, 60_000);
});

describe('listkit conform keeps secrets given in headers out of what it prints', () => {
  it('redacts them in the curl command of a stopped run', async () => {
    const server = await startHostileServer('reset');
    try {
      const run = await conform([
        server.url,
        '--header',
        'Authorization: Bearer s3cr3t-token',
        '--header',
        'X-Api-Key: k3y-value',
        '--json',
      ]);
      expectStopped(run, /ECONNRESET/);
      expect(run.stderr).toContain("-H 'Authorization: <redacted>' -H 'X-Api-Key: <redacted>'");
      expect(`${run.stdout}${run.stderr}`).not.toMatch(/s3cr3t|k3y-value/);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('listkit conform refuses credentials in the URL', () => {
  it('as bad usage, before any request, printing nothing of them', async () => {
    const server = await startHostileServer('reset');
    try {
      const url = new URL(server.url);
      url.username = 'alice';
      url.password = 'hunter2';
      for (const target of [url.href, `http://alice:hunter2@[::1/x`]) {
        const run = await conform([target, '--json']);
        expect(run.status).toBe(2);
        expect(run.stderr).toMatch(/credentials|not a URL/);
        expect(`${run.stdout}${run.stderr}`).not.toMatch(/alice|hunter2/);
      }
      expect(server.requests()).toBe(0);
    } finally {
      await server.close();
    }
  }, 60_000);
});
