// Snapshot restores (issue 37): how long `emulator.restore(name)` takes to put back a state of
// 10^3 and of 10^5 forwarding rules on each store — memory, PGlite (a data directory) and
// PostgreSQL (LISTKIT_PG_URL; `.ci/with-postgres.sh pnpm bench`, skipped without it, saying so)
// — against the aims (10^3 rules: under 5 ms in memory, under 50 ms on PostgreSQL) and against
// what a suite did without snapshots in the same run: `reset()` and the same rules seeded again
// (POST /_listkit/seed). The state is loaded once by importing a snapshot file (the same code a
// restore runs). A benchmark, not a test: it prints a table and never fails on a figure.
//
// Knobs (environment): BENCH_RESTORE_SIZES (default "1000,100000"), BENCH_RESTORE_RUNS
// (restores timed at the smallest size, default 30; 3 at 10^5), BENCH_RESTORE_STORES (default
// "memory,pglite,postgres").

import { mkdtempSync, rmSync } from 'node:fs';
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

/** An emulator on a store, and how to remove what it left. */
async function open(kind) {
  if (kind === 'memory') return { emulator: await createEmulator(), done: async () => {} };
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'listkit-restore-bench-'));
    return {
      emulator: await createEmulator({ dataDir }),
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

async function measure(kind, count, file) {
  const { emulator, done } = await open(kind);
  try {
    const loadStart = performance.now();
    const { name } = await emulator.snapshots.import(file);
    const loadMs = performance.now() - loadStart;
    const runs = count >= 100_000 ? 3 : RUNS;
    const times = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      await emulator.restore(name);
      times.push(performance.now() - started);
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
  '| store | rules | snapshot file | import (load) ms | restore ms: median (fastest) | aim | reset + seed ms | restore vs reset + seed |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const count of SIZES) {
  const file = snapshotFile(count);
  for (const kind of kinds) {
    const r = await measure(kind, count, file);
    const aim = count === 1000 && AIMS[kind] !== undefined ? `< ${AIMS[kind]} ms` : '—';
    console.log(
      `| ${kind} | ${count} | ${(Buffer.byteLength(file) / 1e6).toFixed(1)} MB | ${ms(r.loadMs)} | ${ms(r.restoreMs)} (${ms(r.minMs)}), ${r.runs} runs | ${aim} | ${r.seedMs === undefined ? '—' : ms(r.seedMs)} | ${r.seedMs === undefined ? '—' : `${(r.seedMs / r.restoreMs).toFixed(1)}x faster`} |`,
    );
  }
}
console.log(
  `\nload average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} at the end.`,
);
