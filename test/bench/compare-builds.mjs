// Did a build make the ratio rows worse, or better? Races the regex rows (and, when asked, the
// compiled and parse rows) of several builds of listkit in ONE process, in rotation with their
// peer, so that every build meets the same load (issue 38: on a machine at load 20, figures from
// separate runs move by more than the regressions sought).
// Each build is a checkout with its packages built (`git archive <commit> | tar -x -C <dir>`,
// `pnpm install --frozen-lockfile --offline`, `pnpm --filter @listkit/query --filter
// @listkit/service run build`). Times are CPU time of this process (process.cpuUsage).
//
//   node test/bench/compare-builds.mjs <checkout> [<checkout> ...]
//   BENCH_COMPARE_ROWS=regex,compiled,parse node test/bench/compare-builds.mjs <checkout> ...
//
// Prints, per engine pattern of run.mjs §3, each build's fastest and median ratio to raw re2js;
// with `compiled` in BENCH_COMPARE_ROWS, per filter of run.mjs §2 its ratio to the hand-written
// predicate; with `parse`, per filter of run.mjs §1 parseFilter's ratio to cel-js parse. The
// rows run in that order (regex, compiled, parse), as bench:check runs its own.
// Not for the HTTP row: emulators of several builds in one process slow one another (a page
// made 0.35 ms slower did not show); time those in separate processes, alternated.
import { loadavg } from 'node:os';
import { parse as celParse } from '@marcbachmann/cel-js';
import { RE2JS } from 're2js';
import { counting } from './counting-loop.mjs';
import { FILTERS, PATTERNS, regexFilter } from './ratio-cases.mjs';

const ROUNDS = Number(process.env.BENCH_COMPARE_ROUNDS ?? 31);
const ROWS = new Set((process.env.BENCH_COMPARE_ROWS ?? 'regex').split(','));
const RECORDS = 50_000;
const checkouts = process.argv.slice(2);
if (checkouts.length === 0) {
  console.error('usage: node test/bench/compare-builds.mjs <checkout> [<checkout> ...]');
  process.exit(2);
}
const builds = [];
for (const dir of checkouts) {
  builds.push({
    name: dir,
    query: await import(`${dir}/packages/query/dist/index.js`),
    service: await import(`${dir}/packages/service/dist/index.js`),
  });
}
const rules = builds[0].service.sampleForwardingRules(RECORDS);

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** `fn` called `times` times, as one timed unit (a parse takes about a microsecond). */
const repeated = (fn, times) => () => {
  for (let i = 0; i < times; i++) fn();
};

/** Races each build's `run` against the peer's, in rotation, and prints each build's ratios. */
function race(title, runs, peer) {
  const cases = [...runs, peer];
  const times = cases.map(() => []);
  for (let round = -5; round < ROUNDS; round++) {
    for (let i = 0; i < cases.length; i++) {
      const start = cpuMs();
      cases[i]();
      if (round >= 0) times[i].push(cpuMs() - start);
    }
  }
  const raw = times.at(-1);
  console.log(title);
  for (let i = 0; i < builds.length; i++) {
    const fastest = Math.min(...times[i]) / Math.min(...raw);
    const typical = median(times[i]) / median(raw);
    console.log(`  ${fastest.toFixed(2)}x / ${typical.toFixed(2)}x  ${builds[i].name}`);
  }
}

console.log(`load average ${loadavg()[0].toFixed(1)}; ratio to the peer, fastest / median`);
if (ROWS.has('regex')) {
  for (const { pattern } of PATTERNS.filter((p) => p.note === 'engine')) {
    const re = RE2JS.compile(pattern);
    const runs = builds.map((b) =>
      counting(
        b.query.compileFilter(regexFilter(pattern), b.service.forwardingRuleSchema).matches,
        rules,
      ),
    );
    // The peer reads the name from the same rules, as run.mjs §3 and bench:check do.
    race(
      `\`${pattern}\` / raw re2js`,
      runs,
      counting((r) => re.testExact(r.name), rules),
    );
  }
}
if (ROWS.has('compiled')) {
  for (const { aip, js } of FILTERS) {
    const runs = builds.map((b) =>
      counting(b.query.compileFilter(aip, b.service.forwardingRuleSchema).matches, rules),
    );
    race(`compiled \`${aip}\` / hand-written`, runs, counting(js, rules));
  }
}
if (ROWS.has('parse')) {
  // Every parser warms on every filter first, as bench:check's do.
  for (const { aip, cel } of FILTERS) {
    for (let i = 0; i < 500; i++) {
      for (const b of builds) b.query.parseFilter(aip);
      celParse(cel);
    }
  }
  for (const { aip, cel } of FILTERS) {
    const runs = builds.map((b) => repeated(() => b.query.parseFilter(aip), 300));
    race(
      `parse \`${aip}\` / cel-js`,
      runs,
      repeated(() => celParse(cel), 300),
    );
  }
}
