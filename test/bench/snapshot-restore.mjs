// Snapshot restores (issue 37): how long `emulator.restore(name)` takes to put back a state of
// 10^3 and of 10^5 forwarding rules on each store — memory, PGlite (a data directory) and
// PostgreSQL (LISTKIT_PG_URL; `.ci/with-postgres.sh pnpm bench`, skipped without it, saying so)
// — against the aims (10^3 rules: under 5 ms in memory, under 50 ms on PostgreSQL) and against
// what a suite did without snapshots in the same run: `reset()` and the same rules seeded again
// (POST /_listkit/seed). The state is loaded once by importing a snapshot file. Before each
// timed restore a "test" changes the state as a test would (deletes one of the snapshot's rules
// through the Compute API, which records an operation, and seeds a new one), so a restore has
// something to put back; the worst case, a restore after `reset()` (every row to write again),
// is timed too. A benchmark, not a test: it prints a table and never fails on a figure.
//
// Knobs (environment): BENCH_RESTORE_SIZES (default "1000,100000"), BENCH_RESTORE_RUNS
// (restores timed at the smallest size, default 30; 3 at 10^5), BENCH_RESTORE_STORES (default
// "memory,pglite,postgres").

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createEmulator, sampleForwardingRules } from '@listkit/service';
import pg from 'pg';

const SIZES = (process.env.BENCH_RESTORE_SIZES ?? '1000,100000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RESTORE_RUNS ?? 30);
const PG_URL = process.env.LISTKIT_PG_URL;
const AIMS = { memory: 5, pglite: undefined, postgres: 50 };

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const ms = (value) => (value < 10 ? value.toFixed(2) : value.toFixed(0));

/** A snapshot file of `count` sample rules in one region (what `GET /_listkit/snapshots/x` gives). */
function snapshotFile(count) {
  const rules = sampleForwardingRules(count).map(({ region: _region, ...rule }) => ({
    project: 'bench',
    region: 'us-central1',
    rule,
  }));
  return JSON.stringify({
    listkit: 'snapshot',
    version: 1,
    name: `rules-${count}`,
    takenAt: new Date().toISOString(),
    emulator: {
      clock: { epochMs: Date.now(), frozen: false },
      operationPolicy: { mode: 'immediate' },
      faults: [],
    },
    store: { rules, operations: [], orders: [], settings: {} },
  });
}

/**
 * CPU time (ms) used so far by this process (every thread: PGlite's too) and by the PostgreSQL
 * server processes serving `database` (read from /proc; clock ticks of 10 ms, so a figure is a
 * sum over many restores). On a machine loaded by others, wall time counts the waits for a
 * core; CPU time is what a restore costs.
 */
async function cpuMs(admin, database) {
  const { user, system } = process.cpuUsage();
  let ticks = 0;
  if (admin) {
    const { rows } = await admin.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [
      database,
    ]);
    for (const { pid } of rows) {
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
        ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
      } catch {
        // ended meanwhile
      }
    }
  }
  return { node: (user + system) / 1000, server: ticks * 10 };
}

/** An emulator on a store, and how to remove what it left. */
async function open(kind) {
  if (kind === 'memory') {
    return { emulator: await createEmulator(), cpu: () => cpuMs(), done: async () => {} };
  }
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'listkit-restore-bench-'));
    return {
      emulator: await createEmulator({ dataDir }),
      cpu: () => cpuMs(),
      done: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `listkit_restore_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    emulator: await createEmulator({ database: url.toString() }),
    cpu: () => cpuMs(admin, name),
    done: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** The old way back to a known state: reset, then the same rules seeded again. */
async function resetAndSeed(emulator, file) {
  const { rules } = JSON.parse(file).store;
  const started = performance.now();
  await emulator.reset();
  // In chunks of 500: a body stays under the emulator's 1 MiB limit.
  for (let from = 0; from < rules.length; from += 500) {
    const res = await emulator.fetch(
      new Request('http://bench/_listkit/seed', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ forwardingRules: rules.slice(from, from + 500) }),
      }),
    );
    if (res.status !== 200) throw new Error(`seed: ${res.status} ${await res.text()}`);
  }
  return performance.now() - started;
}

const call = async (emulator, method, path, body) => {
  const res = await emulator.fetch(
    new Request(`http://bench${path}`, {
      method,
      headers: { authorization: 'Bearer x', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
};

/** What a test does before the next one's restore: deletes one rule and adds another. */
async function aTestsChanges(emulator, file, i) {
  const { rules } = JSON.parse(file).store;
  const victim = rules[(i * 7919) % rules.length].rule.name;
  await call(
    emulator,
    'DELETE',
    `/compute/v1/projects/bench/regions/us-central1/forwardingRules/${victim}`,
  );
  const added = { ...rules[0], rule: { ...rules[0].rule, name: `added-by-test-${i}` } };
  delete added.rule.IPAddress;
  await call(emulator, 'POST', '/_listkit/seed', { forwardingRules: [added] });
}

async function measure(kind, count, file) {
  const { emulator, cpu, done } = await open(kind);
  try {
    const loadStart = performance.now();
    const { name } = await emulator.snapshots.import(file);
    const loadMs = performance.now() - loadStart;
    const runs = count >= 100_000 ? 3 : RUNS;
    const times = [];
    const used = { node: 0, server: 0 };
    for (let i = 0; i < runs; i++) {
      await aTestsChanges(emulator, file, i);
      const before = await cpu();
      const started = performance.now();
      await emulator.restore(name);
      times.push(performance.now() - started);
      const after = await cpu();
      used.node += after.node - before.node;
      used.server += after.server - before.server;
    }
    const afterReset = [];
    for (let i = 0; i < Math.min(runs, 5); i++) {
      await emulator.reset();
      const started = performance.now();
      await emulator.restore(name);
      afterReset.push(performance.now() - started);
    }
    const rules = (await emulator.state.forwardingRules.all()).length;
    if (rules !== count) throw new Error(`${kind}: ${rules} rules after a restore, not ${count}`);
    // The peer: a few times at 10^3; at 10^5 once in memory, and not on the SQL stores, whose
    // seed writes a transaction per rule (10^5 of them).
    const seeds = [];
    const peerRuns = count >= 100_000 ? (kind === 'memory' ? 1 : 0) : 3;
    for (let i = 0; i < peerRuns; i++) seeds.push(await resetAndSeed(emulator, file));
    return {
      loadMs,
      restoreMs: median(times),
      minMs: Math.min(...times),
      afterResetMs: median(afterReset),
      cpuMs: { node: used.node / runs, server: used.server / runs },
      seedMs: seeds.length ? median(seeds) : undefined,
      runs,
    };
  } finally {
    await emulator.close();
    await done();
  }
}

const kinds = (process.env.BENCH_RESTORE_STORES ?? 'memory,pglite,postgres')
  .split(',')
  .filter((kind) => kind !== 'postgres' || PG_URL);
console.log(
  `\n## Snapshot restore (test/bench/snapshot-restore.mjs)\n\nnode ${process.version}, ${availableParallelism()} cores, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(
      ' ',
    )} at the start.${PG_URL ? '' : ' PostgreSQL skipped: no LISTKIT_PG_URL (run under .ci/with-postgres.sh).'}\n`,
);
console.log(
  '| store | rules | snapshot file | import (load) ms | restore after a test ms: median (fastest) | CPU ms per restore: node + server | aim | restore after reset ms (median) | reset + seed ms | restore vs reset + seed |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const count of SIZES) {
  const file = snapshotFile(count);
  for (const kind of kinds) {
    const r = await measure(kind, count, file);
    const aim = count === 1000 && AIMS[kind] !== undefined ? `< ${AIMS[kind]} ms` : '—';
    console.log(
      `| ${kind} | ${count} | ${(Buffer.byteLength(file) / 1e6).toFixed(1)} MB | ${ms(r.loadMs)} | ${ms(r.restoreMs)} (${ms(r.minMs)}), ${r.runs} runs | ${ms(r.cpuMs.node)} + ${ms(r.cpuMs.server)} | ${aim} | ${ms(r.afterResetMs)} | ${r.seedMs === undefined ? '—' : ms(r.seedMs)} | ${r.seedMs === undefined ? '—' : `${(r.seedMs / r.restoreMs).toFixed(1)}x faster`} |`,
    );
  }
}
console.log(
  `\nload average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} at the end.`,
);
