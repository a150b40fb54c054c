// Insert against its limit (issue 26): one PostgreSQL insert over HTTP beside the memory store's
// HTTP insert and the bare transaction a write needs (BEGIN, the region's advisory lock, two
// INSERTs, COMMIT through `pg`), with one client (median ms) and with 8 (inserts/s into one
// region, transactions/s for the bare one). Measured in interleaved rounds, so the drifting load
// of the shared machine falls on every row alike. With BENCH_PEERS_BEFORE (another build's
// packages/service/dist/index.js) its PostgreSQL insert runs beside this build's, in the same
// rounds, each on a fresh database. The emulators run in worker threads, the clients in the main
// thread. A fourth row puts the bare transaction behind a bare `node:http` server (JSON body in,
// small JSON answer out, in a worker thread like the emulators, the same `fetch` clients): the
// part of the emulator's gap to the bare transaction that is the HTTP request itself.
// A benchmark, not a test: it prints a table and never fails on a figure.
//
// .ci/with-postgres.sh node test/bench/insert-peers.mjs (in `pnpm bench` after inserts.mjs; skipped
// without LISTKIT_PG_URL)
// Knobs: BENCH_PEERS_ROUNDS (default 5), BENCH_PEERS_COUNT (one-client inserts per round and
// row, default 60), BENCH_PEERS_SECONDS (each 8-client window, default 2), BENCH_PEERS_CLIENTS (8).

import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import pg from 'pg';

const PG_URL = process.env.LISTKIT_PG_URL;
const BEFORE = process.env.BENCH_PEERS_BEFORE;
const ROUNDS = Number(process.env.BENCH_PEERS_ROUNDS ?? 5);
const COUNT = Number(process.env.BENCH_PEERS_COUNT ?? 60);
const SECONDS = Number(process.env.BENCH_PEERS_SECONDS ?? 2);
const CLIENTS = Number(process.env.BENCH_PEERS_CLIENTS ?? 8);
const PROJECT = 'my-project';
const REGION = 'us-central1';
const HEADERS = { authorization: 'Bearer x', 'content-type': 'application/json' };

async function admin(text) {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function freshDatabase(name) {
  await admin(`DROP DATABASE IF EXISTS ${name}`);
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return url.href;
}

async function startEmulator(label, service, database, kind = 'emulator') {
  const worker = new Worker(new URL(import.meta.url), { workerData: { service, database, kind } });
  const { url } = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const endpoint = `${url}/compute/v1/projects/${PROJECT}/regions/${REGION}/forwardingRules`;
  let n = 0;
  let failed = 0;
  return {
    label,
    failed: () => failed,
    stop: async () => {
      worker.postMessage('close');
      await new Promise((resolve) => worker.once('message', resolve));
      await worker.terminate();
    },
    // One insert of a new name without an address (the emulator takes an ephemeral one).
    once: async () => {
      const res = await fetch(endpoint, {
        method: 'POST',
        headers: HEADERS,
        body: JSON.stringify({
          name: `peer-${++n}`,
          target: `regions/${REGION}/targetPools/pool`,
          IPProtocol: 'TCP',
          portRange: '80',
        }),
      });
      await res.arrayBuffer();
      if (res.status !== 200) failed++;
    },
  };
}

/** The bare write's tables and its transaction: the region's lock and two rows, committed. */
async function bareWriter(database) {
  const pool = new pg.Pool({ connectionString: database, max: CLIENTS });
  await pool.query('CREATE TABLE IF NOT EXISTS rules (id bigint PRIMARY KEY, doc jsonb)');
  await pool.query('CREATE TABLE IF NOT EXISTS ops (id bigint PRIMARY KEY, doc jsonb)');
  let n = 0;
  return {
    pool,
    write: async (rule = '{"name":"r"}') => {
      const id = ++n;
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
          `projects/${PROJECT}/regions/${REGION}`,
        ]);
        await client.query('INSERT INTO rules VALUES ($1, $2)', [id, rule]);
        await client.query('INSERT INTO ops VALUES ($1, $2)', [id, '{"name":"o"}']);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
      return id;
    },
  };
}

/** The bare write, on a pool of connections, called from the clients' thread (no HTTP). */
async function startBare(database) {
  const { pool, write } = await bareWriter(database);
  return {
    label: 'bare transaction (lock + 2 inserts)',
    failed: () => 0,
    stop: () => pool.end(),
    once: () => write(),
  };
}

/**
 * The same bare write behind a bare `node:http` server in a worker thread, reached by the same
 * `fetch` clients as the emulator: it reads and parses the JSON body, commits, then answers a
 * small JSON operation. The HTTP request and response, which the emulator cannot skip, priced.
 */
async function serveBareHttp(database) {
  const { pool, write } = await bareWriter(database);
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', async () => {
      const body = JSON.parse(Buffer.concat(chunks).toString());
      const id = await write(JSON.stringify(body));
      res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify({ kind: 'compute#operation', id: String(id), status: 'DONE' }));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await pool.end();
  };
  return { url: `http://127.0.0.1:${server.address().port}`, close };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (n) => (n >= 100 ? n.toFixed(0) : n.toFixed(2));

async function window(target) {
  let done = 0;
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < end) {
        await target.once();
        done++;
      }
    }),
  );
  return done / SECONDS;
}

async function main() {
  if (!PG_URL) {
    console.log('insert-peers: skipped (no LISTKIT_PG_URL; run under .ci/with-postgres.sh)');
    return;
  }
  const loadStart = loadavg()[0];
  const targets = [
    await startEmulator('memory, HTTP insert', undefined, undefined),
    await startEmulator(
      'postgres, HTTP insert (this build)',
      undefined,
      await freshDatabase('listkit_peers_after'),
    ),
  ];
  if (BEFORE) {
    targets.push(
      await startEmulator(
        'postgres, HTTP insert (BENCH_PEERS_BEFORE)',
        BEFORE,
        await freshDatabase('listkit_peers_before'),
      ),
    );
  }
  const bareHttpDatabase = await freshDatabase('listkit_peers_bare_http');
  targets.push(
    await startEmulator('bare HTTP + bare transaction', undefined, bareHttpDatabase, 'bare-http'),
  );
  targets.push(await startBare(await freshDatabase('listkit_peers_bare')));
  const times = targets.map(() => []);
  const rates = targets.map(() => []);
  for (const t of targets) for (let i = 0; i < 20; i++) await t.once(); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < targets.length; k++) {
      const i = (k + round) % targets.length;
      for (let j = 0; j < COUNT; j++) {
        const start = performance.now();
        await targets[i].once();
        times[i].push(performance.now() - start);
      }
      rates[i].push(await window(targets[i]));
    }
  }
  const loadEnd = loadavg()[0];
  console.log(
    `\n${ROUNDS} interleaved rounds: ${COUNT} one-client inserts and a ${SECONDS} s window of ${CLIENTS} clients per row and round; load average ${loadStart.toFixed(1)} → ${loadEnd.toFixed(1)}\n`,
  );
  console.log('| row | 1 client: median ms | 8 clients: per s (median of rounds) | failed |');
  console.log('| :-- | --: | --: | --: |');
  targets.forEach((t, i) => {
    console.log(
      `| ${t.label} | ${fmt(median(times[i]))} | ${fmt(median(rates[i]))} | ${t.failed()} |`,
    );
  });
  const bare = targets.length - 1;
  const memoryMs = median(times[0]);
  const bareMs = median(times[bare]);
  const bareHttp = bare - 1;
  for (let i = 1; i < bareHttp; i++) {
    const ms = median(times[i]);
    console.log(
      `\n${targets[i].label}: ${fmt(ms)} ms = ${(ms / (memoryMs + bareMs)).toFixed(2)}x (memory HTTP insert + bare transaction = ${fmt(memoryMs + bareMs)} ms; aim ≤ 1.3x); ${fmt(median(rates[i]))}/s = ${(median(rates[i]) / median(rates[bare])).toFixed(2)}x the bare transaction's ${fmt(median(rates[bare]))}/s (aim ≥ 0.5x); ${(median(rates[i]) / median(rates[bareHttp])).toFixed(2)}x the same transaction behind bare HTTP (${fmt(median(rates[bareHttp]))}/s)`,
    );
  }
  for (const t of targets) await t.stop();
  for (const name of [
    'listkit_peers_after',
    'listkit_peers_before',
    'listkit_peers_bare_http',
    'listkit_peers_bare',
  ]) {
    await admin(`DROP DATABASE IF EXISTS ${name}`);
  }
}

if (!isMainThread && workerData.kind === 'bare-http') {
  const { url, close } = await serveBareHttp(workerData.database);
  parentPort.on('message', async () => {
    await close();
    parentPort.postMessage({ closed: true });
  });
  parentPort.postMessage({ url });
} else if (!isMainThread) {
  const service = await import(
    workerData.service ? pathToFileURL(workerData.service).href : '@listkit/service'
  );
  const emulator = await service.createEmulator(
    workerData.database ? { database: workerData.database } : {},
  );
  const url = await emulator.listen(0, '127.0.0.1');
  parentPort.on('message', async () => {
    await emulator.close();
    parentPort.postMessage({ closed: true });
  });
  parentPort.postMessage({ url });
} else {
  await main();
}
