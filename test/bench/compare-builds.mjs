// Did a build make the regex rows worse? Races the regex rows of several builds of listkit in ONE
// process, in rotation with raw re2js, so that every build meets the same load (issue 38: on a
// machine at load 20, figures from separate runs move by more than the regressions sought).
// Each build is a checkout with its packages built (`git archive <commit> | tar -x -C <dir>`,
// `pnpm install --frozen-lockfile --offline`, `pnpm --filter @listkit/query --filter
// @listkit/service run build`). Times are CPU time of this process (process.cpuUsage).
//
//   node test/bench/compare-builds.mjs <checkout> [<checkout> ...]
//
// Prints, per engine pattern of run.mjs §3, each build's fastest and median ratio to raw re2js.
// Not for the HTTP row: emulators of several builds in one process slow one another (a page
// made 0.35 ms slower did not show); time those in separate processes, alternated.
import { loadavg } from 'node:os';
import { RE2JS } from 're2js';
import { counting } from './counting-loop.mjs';
import { PATTERNS, regexFilter } from './ratio-cases.mjs';

const ROUNDS = Number(process.env.BENCH_COMPARE_ROUNDS ?? 31);
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

console.log(`load average ${loadavg()[0].toFixed(1)}; ratio to raw re2js, fastest / median`);
for (const { pattern } of PATTERNS.filter((p) => p.note === 'engine')) {
  const re = RE2JS.compile(pattern);
  const cases = builds.map((b) => {
    const filter = b.query.compileFilter(regexFilter(pattern), b.service.forwardingRuleSchema);
    return { name: b.name, run: counting(filter.matches, rules) };
  });
  // The peer reads the name from the same rules, as run.mjs §3 and bench:check do.
  cases.push({ name: 'raw re2js', run: counting((r) => re.testExact(r.name), rules) });
  const times = cases.map(() => []);
  for (let round = -5; round < ROUNDS; round++) {
    for (let i = 0; i < cases.length; i++) {
      const start = cpuMs();
      cases[i].run();
      if (round >= 0) times[i].push(cpuMs() - start);
    }
  }
  const raw = times.at(-1);
  console.log(`\`${pattern}\``);
  for (let i = 0; i < builds.length; i++) {
    const fastest = Math.min(...times[i]) / Math.min(...raw);
    const typical = median(times[i]) / median(raw);
    console.log(`  ${fastest.toFixed(2)}x / ${typical.toFixed(2)}x  ${cases[i].name}`);
  }
}
