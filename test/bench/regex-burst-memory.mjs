// What a burst of large distinct regex filters leaves behind: RSS and V8 heap before and after
// 500 distinct ~2–5 KB regex-style filters, each compiled through the public API
// (compileFilter, as the emulator does per request), matched once and disposed, then a full GC.
// The regexes stay in the per-engine cache (bounded by entries and estimated bytes), so what
// stays is what the cache keeps; each cache budget runs in its own process, so that one run's
// heap does not flatter the next. The peer is the same burst with no cache between requests (a
// cache of one entry), and the patterns themselves (what any server holds while answering).
//
// re2js only: the default engine, and the one whose programs the byte budget measures. re2-wasm
// holds its regexes on a fixed 16 MiB WebAssembly heap that never shrinks; the cache's entry count
// bounds it (see regex-cache.test.ts).
//
// A benchmark, not a test: it prints a table and never fails on a figure. Run with
// `node --expose-gc`. Knobs: BENCH_BURST_FILTERS (default 500), BENCH_BURST_BUDGETS (MiB, default
// "64,16,4"; "1 entry" is always added), BENCH_BURST_ROUNDS (processes per budget, default 3).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  compileFilter,
  DEFAULT_REGEX_CACHE_BYTES,
  defineSchema,
  RegexCache,
  re2jsEngine,
  t,
} from '@listkit/query';

const FILTERS = Number(process.env.BENCH_BURST_FILTERS ?? 500);
const MiB = 1024 * 1024;

/** A deterministic ~2–5 KB pattern, distinct per index, that compiles within the limits. */
function pattern(index) {
  let seed = index + 1;
  const next = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const target = 2048 + Math.floor(next() * 3072);
  const apps = ['web', 'api', 'db', 'cache', 'auth', 'search', 'media', 'batch'];
  const parts = [];
  let length = 0;
  while (length < target) {
    const app = apps[Math.floor(next() * apps.length)];
    const part = `${app}-[a-z]{2,${4 + Math.floor(next() * 6)}}-${index}-[0-9]{1,${1 + Math.floor(next() * 4)}}`;
    parts.push(part);
    length += part.length + 1;
  }
  return `(${parts.join('|')})`;
}

const schema = defineSchema({ key: 'name', fields: { name: t.string() } });

function memory() {
  globalThis.gc?.();
  globalThis.gc?.();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed, external: m.external };
}

if (process.env.BENCH_BURST_CHILD) {
  // One measurement: a cache with the given budget (bytes; "1" entry for no cache).
  const spec = process.env.BENCH_BURST_CHILD;
  const cache =
    spec === 'none'
      ? new RegexCache(re2jsEngine, { capacity: 1 })
      : new RegexCache(re2jsEngine, { maxBytes: Number(spec) });
  // Warm up the code paths with small patterns (outside the figures).
  for (let i = 0; i < 50; i++)
    compileFilter(`name eq "warm-${i}-[a-z]+"`, schema, { regexCache: cache }).dispose();
  cache.clear();
  const texts = Array.from({ length: FILTERS }, (_, i) => `name eq "${pattern(i)}"`);
  const before = memory();
  const start = performance.now();
  let programs = 0;
  for (const text of texts) {
    const filter = compileFilter(text, schema, { regexCache: cache });
    filter.matches({ name: 'web-ab-1-2' });
    filter.dispose();
    programs++;
  }
  const ms = performance.now() - start;
  const after = memory();
  console.log(
    JSON.stringify({
      spec,
      programs,
      ms,
      before,
      after,
      cacheSize: cache.size,
      cacheBytes: cache.bytes,
      textBytes: texts.reduce((sum, s) => sum + s.length * 2, 0),
      mean: texts.reduce((sum, s) => sum + s.length, 0) / texts.length,
    }),
  );
  process.exit(0);
}

const budgets = (process.env.BENCH_BURST_BUDGETS ?? '64,16,4').split(',').map(Number);
const runs = [...budgets.map((b) => String(b * MiB)), 'none'];
const ROUNDS = Number(process.env.BENCH_BURST_ROUNDS ?? 3);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const results = [];
for (const spec of runs) {
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const child = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url)], {
      env: { ...process.env, BENCH_BURST_CHILD: spec },
      encoding: 'utf8',
    });
    if (child.status !== 0) {
      console.log(`run ${spec} failed:\n${child.stderr}`);
      process.exit(1);
    }
    rounds.push(JSON.parse(child.stdout.trim().split('\n').at(-1)));
  }
  const rss = rounds.map((r) => r.after.rss - r.before.rss);
  results.push({
    ...rounds[0],
    rss: median(rss),
    rssRange: [Math.min(...rss), Math.max(...rss)],
    heap: median(rounds.map((r) => r.after.heap - r.before.heap)),
    ms: median(rounds.map((r) => r.ms)),
  });
}

const mb = (bytes) => (bytes / MiB).toFixed(1);
const first = results[0];
console.log(
  `\n### Regex burst: ${first.programs} distinct regex filters of ${(first.mean / 1024).toFixed(1)} KB on average (re2js), compiled, matched once, disposed; then a full GC\n`,
);
console.log(
  `The default budget is ${mb(DEFAULT_REGEX_CACHE_BYTES)} MiB. Memory after minus before (MiB, median of ${ROUNDS} processes; RSS range in brackets); the filter texts themselves are ${mb(first.textBytes)} MiB.\n`,
);
console.log(
  '| cache budget | kept regexes | kept (estimated MiB) | RSS growth | heap growth | burst ms | ms per filter |',
);
console.log('|:---|---:|---:|---:|---:|---:|---:|');
for (const r of results) {
  const label = r.spec === 'none' ? 'none (1 entry)' : `${mb(Number(r.spec))} MiB`;
  console.log(
    `| ${label} | ${r.cacheSize} | ${mb(r.cacheBytes)} | ${mb(r.rss)} [${mb(r.rssRange[0])}–${mb(r.rssRange[1])}] | ${mb(r.heap)} | ${r.ms.toFixed(0)} | ${(r.ms / r.programs).toFixed(2)} |`,
  );
}
