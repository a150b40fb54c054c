// Load and soak harness for the emulator (`pnpm soak`). Not a test: it prints figures and exits
// non-zero only when an invariant is violated or a 5xx is seen.
//
// 1. Starts the built `listkit serve` as a child process on 127.0.0.1 (loopback only).
// 2. Mixed load: SOAK_CLIENTS concurrent clients (default 50) mixing insert / list / get /
//    delete / setLabels / refund for SOAK_MIXED_SECONDS (default 30).
// 3. Invariants, from GET /_listkit/state: every acknowledged write visible exactly once (rules
//    inserted and not deleted are there once, deleted ones are gone), every operation kept
//    matches an acknowledged write, every order refunded exactly once is refunded and no order
//    was acknowledged twice.
// 4. Churn: the same clients insert and delete for SOAK_CHURN_SECONDS (default 600), sampling
//    the server's RSS after 1 minute (or a tenth of the run, if shorter) and at the end.
//
// 5. Stall probe, during the churn: a health check every 100 ms, and every 10 s a list with a
//    regex whose cost explodes in a backtracking engine (`description eq "(.?){200}.{200}"`);
//    health latency shows whether any request stopped the server's event loop.
//
// Runs once per store in SOAK_STORES (default `memory,pglite`; pglite in a fresh data directory,
// whose size is sampled every 30 s of the churn: it should level off after the first minutes).
// Prints p50/p99 per call, the 5xx count, server RSS at start and end, and at the end health
// latency of each store side by side.
// Every loop is bounded in count and time: each client stops at its deadline or after
// SOAK_MAX_CALLS_PER_CLIENT calls, each request aborts after 15 s, and a watchdog ends the run.

import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const STORES = (process.env.SOAK_STORES ?? 'memory,pglite').split(',').filter(Boolean);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 50);
const MIXED_SECONDS = Number(process.env.SOAK_MIXED_SECONDS ?? 30);
const CHURN_SECONDS = Number(process.env.SOAK_CHURN_SECONDS ?? 600);
const MAX_CALLS = Number(process.env.SOAK_MAX_CALLS_PER_CLIENT ?? 1_000_000);
const ORDERS = Number(process.env.SOAK_ORDERS ?? 500);
const REQUEST_TIMEOUT_MS = 15_000;
const WATCHDOG_MS = (MIXED_SECONDS + CHURN_SECONDS + 180) * 1000 * STORES.length;
const HEALTH_EVERY_MS = 100;
const HOSTILE_EVERY_MS = 10_000;
const HOSTILE_FILTER = 'description eq "(.?){200}.{200}"';
const PROJECT = 'soak-project';
const REGIONS = ['us-central1', 'europe-west1'];
const PACKAGE = 'com.example.soak';
const HEADERS = { authorization: 'Bearer soak', 'content-type': 'application/json' };

const cli = fileURLToPath(new URL('../../packages/service/dist/cli.js', import.meta.url));

const watchdog = setTimeout(() => {
  console.error(`soak: watchdog: still running after ${WATCHDOG_MS / 1000} s, giving up`);
  process.exit(3);
}, WATCHDOG_MS);
watchdog.unref();

// ---------------------------------------------------------------------------------------------
// The server

function startServer(storeFlags) {
  const child = spawn(
    process.execPath,
    [cli, 'serve', '--port', '0', '--host', '127.0.0.1', '--no-sample-data', ...storeFlags],
    {
      stdio: ['ignore', 'ignore', 'pipe'], // stdout is one JSON line per request: not needed
      env: { ...process.env, LISTKIT_AUTH_CONFIG: '', LISTKIT_CONTROL_TOKEN: '' },
    },
  );
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 60_000);
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /listkit emulator on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${stderr}`)));
  });
}

/** The server's resident set size in MB, from /proc (Linux) . */
function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]);
  return Math.round(kb / 1024);
}

/** The bytes of every file under `dir`, in MB. */
function directoryMb(dir) {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) bytes += statSync(join(entry.parentPath, entry.name)).size;
  }
  return Math.round(bytes / 1024 / 1024);
}

// ---------------------------------------------------------------------------------------------
// Calls, with latencies and status counts

const stats = new Map(); // call → { ms: number[], statuses: Map }
let serverErrors = 0;
let transportErrors = 0;

async function call(name, method, url, body) {
  const started = performance.now();
  let status = 0;
  let json;
  try {
    const response = await fetch(url, {
      method,
      headers: HEADERS,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    status = response.status;
    const text = await response.text();
    json = text ? JSON.parse(text) : undefined;
  } catch (error) {
    transportErrors++;
    json = { transportError: String(error) };
  }
  const ms = performance.now() - started;
  let entry = stats.get(name);
  if (!entry) {
    entry = { ms: [], statuses: new Map() };
    stats.set(name, entry);
  }
  entry.ms.push(ms);
  entry.statuses.set(status, (entry.statuses.get(status) ?? 0) + 1);
  if (status >= 500) {
    serverErrors++;
    if (serverErrors <= 5)
      console.error(`soak: ${name} answered ${status}: ${JSON.stringify(json)}`);
  }
  return { status, json };
}

const percentile = (sorted, p) =>
  sorted.length === 0
    ? 0
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Prints the calls' latencies and clears them; returns the health probe's p50, p99 and max. */
function printStats(title) {
  const health = stats.get('health');
  const healthSorted = health ? Float64Array.from(health.ms).sort() : new Float64Array();
  const healthFigures = {
    p50: percentile(healthSorted, 50),
    p99: percentile(healthSorted, 99),
    max: healthSorted.at(-1) ?? 0,
  };
  console.log(`\n${title}`);
  console.log('| call | calls | p50 ms | p99 ms | statuses |');
  console.log('| ---- | ----: | -----: | -----: | -------- |');
  for (const [name, { ms, statuses }] of [...stats].sort()) {
    const sorted = Float64Array.from(ms).sort();
    const shown = [...statuses]
      .sort()
      .map(([s, n]) => `${s}×${n}`)
      .join(' ');
    console.log(
      `| ${name} | ${ms.length} | ${percentile(sorted, 50).toFixed(2)} | ${percentile(sorted, 99).toFixed(2)} | ${shown} |`,
    );
  }
  stats.clear();
  return healthFigures;
}

// ---------------------------------------------------------------------------------------------
// Clients

const rulesUrl = (base, region) =>
  `${base}/compute/v1/projects/${PROJECT}/regions/${region}/forwardingRules`;

/** What one client saw acknowledged. */
function newLedger() {
  return {
    live: new Map(), // `${region}/${name}` → true, for rules inserted and not deleted
    operations: new Set(), // operation names acknowledged
    refunded: new Set(), // order ids acknowledged with 204
    labels: new Map(), // `${region}/${name}` → labels set last (acknowledged)
  };
}

const pick = (array) => array[Math.floor(Math.random() * array.length)];

async function insert(base, ledger, client, seq) {
  const region = pick(REGIONS);
  const name = `soak-${client}-${seq}`;
  const res = await call(
    'insert',
    'POST',
    `${rulesUrl(base, region)}?requestId=${crypto.randomUUID()}`,
    // An explicit, unique address: the emulator's pool for rules without one is small.
    {
      name,
      // Text for the stall probe's regex to work through.
      description: `soak rule ${name} inserted by client ${client} as call ${seq} of its run`,
      IPAddress: `203.${client}.${(seq >> 8) & 255}.${seq & 255}`,
      IPProtocol: 'TCP',
      portRange: '80',
      loadBalancingScheme: 'EXTERNAL',
    },
  );
  if (res.status === 200) {
    ledger.live.set(`${region}/${name}`, true);
    ledger.operations.add(res.json.name);
  }
}

async function remove(base, ledger) {
  const key = pick([...ledger.live.keys()]);
  if (!key) return;
  const [region, name] = key.split('/');
  const res = await call('delete', 'DELETE', `${rulesUrl(base, region)}/${name}`);
  if (res.status === 200) {
    ledger.live.delete(key);
    ledger.labels.delete(key);
    ledger.operations.add(res.json.name);
  }
}

async function get(base, ledger) {
  const key = pick([...ledger.live.keys()]);
  if (!key) return;
  const [region, name] = key.split('/');
  await call('get', 'GET', `${rulesUrl(base, region)}/${name}`);
}

async function list(base) {
  const region = pick(REGIONS);
  const filter = pick(['', 'name = soak-1*', 'name eq "soak-2.*"', 'labels.round:*']);
  const query = new URLSearchParams({ maxResults: '50', ...(filter ? { filter } : {}) });
  await call('list', 'GET', `${rulesUrl(base, region)}?${query}`);
}

async function setLabels(base, ledger, seq) {
  const key = pick([...ledger.live.keys()]);
  if (!key) return;
  const [region, name] = key.split('/');
  const current = await call('get', 'GET', `${rulesUrl(base, region)}/${name}`);
  if (current.status !== 200) return;
  const labels = { round: String(seq) };
  const res = await call('setLabels', 'POST', `${rulesUrl(base, region)}/${name}/setLabels`, {
    labels,
    labelFingerprint: current.json.labelFingerprint,
  });
  if (res.status === 200) {
    ledger.labels.set(key, labels);
    ledger.operations.add(res.json.name);
  }
}

async function refund(base, ledger) {
  const orderId = `GPA.9999-0000-0000-${String(Math.floor(Math.random() * ORDERS)).padStart(5, '0')}`;
  const res = await call(
    'refund',
    'POST',
    `${base}/androidpublisher/v3/applications/${PACKAGE}/orders/${orderId}:refund`,
  );
  if (res.status === 204) ledger.refunded.add(orderId);
}

async function mixedClient(base, ledger, client, deadline) {
  for (let seq = 0; seq < MAX_CALLS && Date.now() < deadline; seq++) {
    const roll = Math.random();
    if (roll < 0.3 || ledger.live.size === 0) await insert(base, ledger, client, seq);
    else if (roll < 0.5) await list(base);
    else if (roll < 0.65) await get(base, ledger);
    else if (roll < 0.78) await remove(base, ledger);
    else if (roll < 0.93) await setLabels(base, ledger, seq);
    else await refund(base, ledger);
  }
}

async function churnClient(base, ledger, client, deadline, from) {
  for (let seq = from; seq < from + MAX_CALLS && Date.now() < deadline; seq++) {
    if (ledger.live.size < 20 || Math.random() < 0.5) await insert(base, ledger, client, seq);
    else await remove(base, ledger);
    if (seq % 10 === 0) await list(base);
  }
}

/** Health every 100 ms and the hostile regex list every 10 s, until `deadline`. */
async function stallProbe(base, deadline) {
  let nextHostile = Date.now() + HOSTILE_EVERY_MS;
  const hostile = [];
  while (Date.now() < deadline) {
    if (Date.now() >= nextHostile) {
      nextHostile += HOSTILE_EVERY_MS;
      const query = new URLSearchParams({ filter: HOSTILE_FILTER, maxResults: '50' });
      // Not awaited: health goes on being asked while it runs.
      hostile.push(call('hostile list', 'GET', `${rulesUrl(base, REGIONS[0])}?${query}`));
    }
    await call('health', 'GET', `${base}/_listkit/health`);
    await new Promise((resolve) => setTimeout(resolve, HEALTH_EVERY_MS));
  }
  await Promise.all(hostile);
}

// ---------------------------------------------------------------------------------------------
// Invariants

async function checkInvariants(base, ledgers) {
  const problems = [];
  const state = (await call('state', 'GET', `${base}/_listkit/state`)).json;
  const seen = new Map();
  for (const { project, region, rule } of state.forwardingRules) {
    if (project !== PROJECT) continue;
    const key = `${region}/${rule.name}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  const live = new Map();
  for (const ledger of ledgers) for (const [key] of ledger.live) live.set(key, ledger);
  for (const [key, ledger] of live) {
    const count = seen.get(key) ?? 0;
    if (count !== 1) problems.push(`rule ${key} acknowledged and not deleted, seen ${count} times`);
    const labels = ledger.labels.get(key);
    if (labels) {
      const [region, name] = key.split('/');
      const rule = await call('get', 'GET', `${rulesUrl(base, region)}/${name}`);
      if (JSON.stringify(rule.json.labels ?? {}) !== JSON.stringify(labels))
        problems.push(
          `rule ${key}: labels ${JSON.stringify(rule.json.labels)}, acknowledged ${JSON.stringify(labels)}`,
        );
    }
  }
  for (const [key, count] of seen) {
    if (!live.has(key))
      problems.push(`rule ${key} is stored (${count}×) but was never acknowledged, or was deleted`);
  }
  const acknowledgedOps = new Set();
  let opAcks = 0;
  for (const ledger of ledgers) {
    for (const op of ledger.operations) acknowledgedOps.add(op);
    opAcks += ledger.operations.size;
  }
  if (acknowledgedOps.size !== opAcks)
    problems.push('an operation name was answered to two writes');
  const kept = state.operations.filter((op) =>
    String(op.selfLink).includes(`/projects/${PROJECT}/`),
  );
  for (const op of kept) {
    if (!acknowledgedOps.has(op.name))
      problems.push(`operation ${op.name} matches no acknowledged write`);
  }
  const refunded = new Map();
  for (const ledger of ledgers)
    for (const id of ledger.refunded) refunded.set(id, (refunded.get(id) ?? 0) + 1);
  for (const [id, count] of refunded)
    if (count !== 1) problems.push(`order ${id} acknowledged as refunded ${count} times`);
  const storedRefunded = state.orders.filter((o) => o.packageName === PACKAGE && o.refund);
  if (storedRefunded.length !== refunded.size)
    problems.push(
      `${storedRefunded.length} orders refunded in state, ${refunded.size} refunds acknowledged`,
    );
  return {
    problems,
    rules: seen.size,
    operationsKept: kept.length,
    operationsAcknowledged: opAcks,
    refunds: refunded.size,
  };
}

// ---------------------------------------------------------------------------------------------

/** Mixed load, invariants, churn with the stall probe, invariants again, on one store. */
async function soak(store) {
  const dataDir = store === 'pglite' ? mkdtempSync(join(tmpdir(), 'listkit-soak-')) : undefined;
  const { child, url } = await startServer(dataDir ? ['--data-dir', dataDir] : []);
  serverErrors = 0;
  transportErrors = 0;
  try {
    const purchaseTime = new Date(Date.now() - 86_400_000).toISOString();
    const seeded = await call('seed', 'POST', `${url}/_listkit/seed`, {
      orders: Array.from({ length: ORDERS }, (_, i) => ({
        packageName: PACKAGE,
        orderId: `GPA.9999-0000-0000-${String(i).padStart(5, '0')}`,
        kind: 'oneTimeProduct',
        purchaseTime,
      })),
    });
    if (seeded.status !== 200) throw new Error(`seed failed: ${JSON.stringify(seeded.json)}`);
    stats.clear();
    const rssStart = rssMb(child.pid);
    console.log(`\n## Store: ${store}${dataDir ? ` (${dataDir})` : ''}`);
    console.log(`soak: server ${url} (pid ${child.pid}), RSS at start ${rssStart} MB`);
    console.log(
      `soak: ${CLIENTS} clients, mixed ${MIXED_SECONDS} s, churn ${CHURN_SECONDS} s, node ${process.version}`,
    );

    const ledgers = Array.from({ length: CLIENTS }, newLedger);
    const mixedEnd = Date.now() + MIXED_SECONDS * 1000;
    await Promise.all(ledgers.map((ledger, i) => mixedClient(url, ledger, i, mixedEnd)));
    printStats(`Mixed load (${CLIENTS} clients, ${MIXED_SECONDS} s)`);
    const mixed5xx = serverErrors;

    const invariants = await checkInvariants(url, ledgers);
    console.log(
      `\nInvariants: ${invariants.problems.length} violations (${invariants.rules} rules stored, ${invariants.operationsKept} operations kept of ${invariants.operationsAcknowledged} acknowledged, ${invariants.refunds} refunds)`,
    );
    for (const problem of invariants.problems.slice(0, 20)) console.log(`  - ${problem}`);
    stats.clear(); // the invariant check's own calls are not load
    const rssAfterMixed = rssMb(child.pid);

    let rssEarly;
    const churnStart = Date.now();
    const churnEnd = churnStart + CHURN_SECONDS * 1000;
    const earlyAt = Math.min(60_000, (CHURN_SECONDS * 1000) / 10);
    const sampler = setTimeout(() => {
      rssEarly = rssMb(child.pid);
    }, earlyAt);
    const directorySizes = [];
    const directorySampler = dataDir
      ? setInterval(() => directorySizes.push(directoryMb(dataDir)), 30_000)
      : undefined;
    await Promise.all([
      ...ledgers.map((ledger, i) => churnClient(url, ledger, i, churnEnd, 1_000_000)),
      stallProbe(url, churnEnd),
    ]);
    clearTimeout(sampler);
    clearInterval(directorySampler);
    const health = printStats(`Churn (${CLIENTS} clients, ${CHURN_SECONDS} s, stall probe)`);
    const rssEnd = rssMb(child.pid);
    const churnInvariants = await checkInvariants(url, ledgers);

    console.log(`\nSummary (${store})`);
    console.log(
      `  5xx answers: ${serverErrors} (mixed ${mixed5xx}); transport errors: ${transportErrors}`,
    );
    console.log(
      `  invariant violations: after mixed ${invariants.problems.length}, after churn ${churnInvariants.problems.length}`,
    );
    for (const problem of churnInvariants.problems.slice(0, 20)) console.log(`  - ${problem}`);
    console.log(
      `  server RSS: start ${rssStart} MB, after mixed ${rssAfterMixed} MB, churn +${Math.round(earlyAt / 1000)} s ${rssEarly ?? '?'} MB, end ${rssEnd} MB` +
        (rssEarly ? ` (end / early = ${(rssEnd / rssEarly).toFixed(2)})` : ''),
    );
    console.log(
      `  health under churn: p50 ${health.p50.toFixed(1)} ms, p99 ${health.p99.toFixed(1)} ms, max ${health.max.toFixed(1)} ms`,
    );
    if (dataDir) {
      console.log(
        `  data directory, every 30 s of the churn: ${directorySizes.join(', ')} MB; at the end ${directoryMb(dataDir)} MB`,
      );
    }
    const failed =
      serverErrors > 0 || invariants.problems.length > 0 || churnInvariants.problems.length > 0;
    return { store, failed, health };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) =>
      child.exitCode === null ? child.once('exit', resolve) : resolve(),
    );
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const results = [];
  for (const store of STORES) results.push(await soak(store));
  console.log('\n## Health under churn, by store');
  console.log('| store | p50 ms | p99 ms | max ms |');
  console.log('| ----- | -----: | -----: | -----: |');
  for (const { store, health } of results) {
    console.log(
      `| ${store} | ${health.p50.toFixed(1)} | ${health.p99.toFixed(1)} | ${health.max.toFixed(1)} |`,
    );
  }
  const memory = results.find((r) => r.store === 'memory');
  for (const r of results) {
    if (r !== memory && memory)
      console.log(
        `${r.store} health p99 / memory's: ${(r.health.p99 / memory.health.p99).toFixed(2)}x`,
      );
  }
  process.exitCode = results.some((r) => r.failed) ? 1 : 0;
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
