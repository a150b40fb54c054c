// What checking resources at the door costs (issue 31): Collection.put of N forwarding rules into
// a new collection with both Compute orderings indexed, as index.mjs measures it, three ways in
// the same run: unvalidated (`validate: false`: the put before issue 31), validated (the
// default), and validated with `coerce`. The ways are timed in interleaved rounds, so the load
// of this shared machine falls on all alike; the figure is the median round. Time is the
// process's CPU time (user + system, process.cpuUsage), not wall time: on a machine with ten
// runnable processes per core, wall time mostly counts the waits for a core, which moved a
// round by 20% and hid a check costing a few percent. Aim: validation
// within 10% of the unvalidated put. A benchmark, not a test: it prints a table and never fails.
//
// Knobs (environment): BENCH_PUT_SIZE (rules per put, default 100000), BENCH_PUT_ROUNDS
// (default 7).

import { loadavg } from 'node:os';
import { Collection, PageTokenCodec } from '@listkit/query';
import { forwardingRuleSchema, sampleForwardingRules } from '@listkit/service';

const SIZE = Number(process.env.BENCH_PUT_SIZE ?? 100_000);
const ROUNDS = Number(process.env.BENCH_PUT_ROUNDS ?? 7);
const ORDERS = ['', 'creationTimestamp desc'];
const AIM = 1.1;

const pageTokens = await PageTokenCodec.create();
const rules = sampleForwardingRules(SIZE, { seed: 31 });
const WAYS = {
  unvalidated: { validate: false },
  validated: {},
  'validated, coerce': { coerce: true },
};

/** CPU ns per put of every rule into a new collection, its orderings indexed first. */
async function timePuts(options) {
  const collection = new Collection(forwardingRuleSchema, { pageTokens, ...options });
  for (const orderBy of ORDERS) await collection.list({ orderBy, pageSize: 1 });
  const start = process.cpuUsage();
  for (const rule of rules) collection.put(rule);
  const { user, system } = process.cpuUsage(start);
  return ((user + system) * 1000) / SIZE;
}

const samples = Object.fromEntries(Object.keys(WAYS).map((w) => [w, []]));
for (let round = -1; round < ROUNDS; round++) {
  for (const [way, options] of Object.entries(WAYS)) {
    globalThis.gc?.();
    const ns = await timePuts(options);
    if (round >= 0) samples[way].push(ns);
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const base = median(samples.unvalidated);
console.log(`## Collection.put with and without validation (test/bench/put-validation.mjs)`);
console.log();
console.log(
  `${SIZE.toLocaleString('en-US')} rules per put, both orderings indexed, CPU time, median of ${ROUNDS} interleaved rounds; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log();
console.log('| put | CPU µs/rule | against unvalidated | aim (≤ 1.10x) |');
console.log('| :-- | ------: | ------------------: | ------------: |');
for (const way of Object.keys(WAYS)) {
  const ns = median(samples[way]);
  const ratio = ns / base;
  const aim = way === 'unvalidated' ? '' : ratio <= AIM ? 'met' : 'missed';
  console.log(`| ${way} | ${(ns / 1000).toFixed(2)} | ${ratio.toFixed(2)}x | ${aim} |`);
}
