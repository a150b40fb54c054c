// `pnpm bench` (after filter-cli.mjs): partial responses. A page of 500 forwarding rules as the
// emulator answers it, projected by a field mask (`fields=items(name,labels),nextPageToken`),
// against the limit the issue sets: the page's own serialisation (JSON.stringify of the whole
// page, which every answer pays). Built packages, imported as a user would.
// A benchmark, not a test: it prints a table and never fails on a figure.
//
// Knobs (environment): BENCH_RUNS (timed rounds, default 31), BENCH_PAGE (default 500).

import { loadavg } from 'node:os';
import { compileFieldMask, listResponseType, t } from '@listkit/query';
import { forwardingRuleSchema, sampleForwardingRules } from '@listkit/service';

const RUNS = Number(process.env.BENCH_RUNS ?? 31);
const PAGE = Number(process.env.BENCH_PAGE ?? 500);
const WARMUP = 5;
const REPEAT = 20; // calls per sample: one page costs tens of microseconds

const now = () => process.hrtime.bigint();
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Median µs of one call per case, cases interleaved round by round (load hits all alike). */
function race(cases) {
  globalThis.gc?.();
  const samples = cases.map(() => []);
  let sink = 0;
  for (let round = -WARMUP; round < RUNS; round++) {
    for (let i = 0; i < cases.length; i++) {
      const start = now();
      for (let r = 0; r < REPEAT; r++) sink ^= cases[i].fn() ? 1 : 0;
      const perCall = Number(now() - start) / REPEAT / 1000;
      if (round >= 0) samples[i].push(perCall);
    }
  }
  if (sink === 2) console.log(''); // keep results alive
  return cases.map((c, i) => ({ name: c.name, us: median(samples[i]) }));
}

const page = {
  kind: 'compute#forwardingRuleList',
  id: 'projects/my-project/regions/us-central1/forwardingRules',
  items: sampleForwardingRules(PAGE),
  nextPageToken: 'CgZmci0wNDk5',
  selfLink:
    'https://www.googleapis.com/compute/v1/projects/my-project/regions/us-central1/forwardingRules',
};
const type = listResponseType(forwardingRuleSchema, {
  fields: { kind: t.string(), id: t.string(), selfLink: t.string() },
});
const TEXT = 'items(name,labels),nextPageToken';
const mask = compileFieldMask(TEXT, type);
const wide = compileFieldMask(
  'kind,items(name,IPAddress,IPProtocol,portRange,labels,region,selfLink,target),nextPageToken',
  type,
);

const results = race([
  { name: 'JSON.stringify(page) (the limit)', fn: () => JSON.stringify(page) },
  { name: 'compileFieldMask (once per request)', fn: () => compileFieldMask(TEXT, type) },
  { name: 'mask.apply(page)', fn: () => mask.apply(page) },
  { name: 'mask.apply(page), 8 paths', fn: () => wide.apply(page) },
  {
    name: 'compile + apply + stringify',
    fn: () => JSON.stringify(compileFieldMask(TEXT, type).apply(page)),
  },
]);

const limit = results[0].us;
const full = JSON.stringify(page).length;
const projected = JSON.stringify(mask.apply(page)).length;
console.log(`\nPartial responses: a page of ${PAGE} forwarding rules, fields=${TEXT}`);
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; median of ${RUNS} rounds`,
);
console.log(
  `page ${(full / 1024).toFixed(1)} KiB, projected ${(projected / 1024).toFixed(1)} KiB (${((projected / full) * 100).toFixed(1)}%)\n`,
);
console.log('| case | µs per call | × JSON.stringify(page) |');
console.log('|---|---:|---:|');
for (const r of results) {
  console.log(`| ${r.name} | ${r.us.toFixed(1)} | ${(r.us / limit).toFixed(3)} |`);
}
