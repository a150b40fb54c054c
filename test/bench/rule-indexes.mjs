// Which declared indexes pay on the emulator's forwarding-rule collections: the cost of a write
// with none, `labels` only, the four most filtered fields, and all eight the emulator declares
// (FORWARDING_RULE_INDEXES), before and after filtered pages have built each index's tree for
// the default ordering, beside the cost of a filtered page of 500 with and without the index.
// A benchmark, not a test: it prints a table and never fails on a figure.
//
// Knob: BENCH_INDEX_RULES (default 100000).

import { Collection, PageTokenCodec } from '@listkit/query';
import { forwardingRuleSchema, sampleForwardingRules } from '@listkit/service';

const N = Number(process.env.BENCH_INDEX_RULES ?? 100_000);
const ROUNDS = 3;
const PAGE = 500;
const ALL = [
  'labels',
  'IPAddress',
  'IPProtocol',
  'loadBalancingScheme',
  'network',
  'subnetwork',
  'target',
  'backendService',
];
const SETS = [
  ['none', []],
  ['labels', ['labels']],
  ['labels, IPAddress, IPProtocol, loadBalancingScheme', ALL.slice(0, 4)],
  ['all eight (the emulator)', ALL],
];

const pageTokens = await PageTokenCodec.create();
const rules = sampleForwardingRules(N, { project: 'p' });
const fresh = sampleForwardingRules(N + 5000, { project: 'p' })
  .slice(N)
  .map((rule) => ({ ...rule, name: `${rule.name}-new` }));
const FILTERS = [
  'labels.env = prod',
  'IPProtocol = UDP',
  'loadBalancingScheme = INTERNAL',
  `IPAddress = "${rules[N >> 1].IPAddress}"`,
  'network = "projects/p/global/networks/other"',
];
const distinct = (field) =>
  new Set(rules.map((r) => (typeof r[field] === 'object' ? JSON.stringify(r[field]) : r[field])))
    .size;

const now = () => performance.now();
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const fmt = (n, d = 2) => n.toFixed(d);

const results = new Map();
for (let round = 0; round < ROUNDS; round++) {
  for (const [label, indexes] of SETS) {
    globalThis.gc?.();
    const collection = new Collection(forwardingRuleSchema, { pageTokens, indexes });
    collection.values(); // the default ordering's index, as every list builds it
    let start = now();
    for (const rule of rules) collection.put(rule);
    const put = ((now() - start) / N) * 1000;
    for (const filter of FILTERS) await collection.list({ filter, pageSize: PAGE });
    globalThis.gc?.();
    start = now();
    for (const rule of fresh) collection.put(rule);
    const putAfter = ((now() - start) / fresh.length) * 1000;
    const pages = FILTERS.map(() => 0);
    for (const [i, filter] of FILTERS.entries()) {
      start = now();
      for (let k = 0; k < 5; k++) await collection.list({ filter, pageSize: PAGE });
      pages[i] = (now() - start) / 5;
    }
    const entry = results.get(label) ?? { put: [], putAfter: [], pages: FILTERS.map(() => []) };
    entry.put.push(put);
    entry.putAfter.push(putAfter);
    for (const [i, ms] of pages.entries()) entry.pages[i].push(ms);
    results.set(label, entry);
  }
}

console.log(`# Declared indexes on ${N.toLocaleString('en-US')} forwarding rules`);
console.log();
console.log(
  `Distinct values: ${ALL.map((f) => `${f} ${distinct(f)}`).join(', ')}. Median of ${ROUNDS} rounds (sets interleaved). \`put\` is µs per rule while loading; \`put after seeks\` is µs per new rule once a page of each filter below has built its index's tree for the default ordering; the filter columns are ms per first page of ${PAGE}.`,
);
console.log();
const headers = ['indexes', 'put µs', 'put after seeks µs', ...FILTERS.map((f) => `\`${f}\` ms`)];
const rows = [...results].map(([label, r]) => [
  label,
  fmt(median(r.put)),
  fmt(median(r.putAfter)),
  ...r.pages.map((ms) => fmt(median(ms), 3)),
]);
const widths = headers.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c].length)));
const line = (row) =>
  `| ${row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join(' | ')} |`;
console.log(line(headers));
console.log(
  `|${widths.map((w, c) => (c === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
);
for (const row of rows) console.log(line(row));
console.log();
