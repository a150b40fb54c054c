// `pnpm bench:check`: a guard against silent regressions. It runs the ratio rows of `pnpm bench`
// with few iterations (seconds, not minutes), each against its peer in the same run, and
// compares each ratio with the one recorded in test/bench/baseline.json: a ratio worse than its
// baseline by more than its row's margin fails the check (exit code 1). Ratios, not times: a ratio to a
// peer measured in the same rounds moves far less between machines, and under load, than a time.
//
//   HTTP page / bare node:http  a list page of 500 over loopback (identity) from the emulator,
//                               against a node:http server answering the same bytes (run.mjs has
//                               no HTTP row; http.mjs and http-gzip.mjs time it at length)
//   HTTP get / bare node:http   one rule's GET (about 1 kB) the same way: what every answer that
//                               is not a list page costs beyond its bytes (inserts, operations)
//   regex / raw re2js           run.mjs §3: compileFilter(`name eq "<p>"`).matches against
//                               (r) => RE2JS.compile(p).testExact(r.name), per pattern, both
//                               over the same rules
//   parse / cel-js              run.mjs §1: parseFilter(aip) against cel-js parse(cel)
//   compiled / hand-written     run.mjs §2: compileFilter(aip).matches against a JS predicate
//
// Refresh the baseline on purpose (after a change that is meant to move a ratio, on a quiet
// machine): `node test/bench/check.mjs --write-baseline`, and commit test/bench/baseline.json.
// Clocks: the synchronous rows are timed in CPU time of this process, which a loaded machine
// does not inflate the way it does wall-clock time; the HTTP row, which waits on sockets, on the
// wall clock. Knobs: BENCH_CHECK_MARGIN (every row's margin; by default 0.25, and 0.4 for the
// parse rows: MARGINS below), BENCH_CHECK_ROUNDS (default 15; the HTTP row takes 16 times as many).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { loadavg } from 'node:os';
import { compileFilter, parseFilter, re2jsEngine } from '@listkit/query';
import { createEmulator, forwardingRuleSchema, sampleForwardingRules } from '@listkit/service';
import { parse as celParse } from '@marcbachmann/cel-js';
import { RE2JS } from 're2js';
import { counting } from './counting-loop.mjs';
import { FILTERS, PATTERNS, regexFilter } from './ratio-cases.mjs';

const BASELINE = new URL('./baseline.json', import.meta.url);
// How much worse than its baseline a ratio may read before the check fails, by the row's first
// word; BENCH_CHECK_MARGIN, when set, applies to every row. From clean runs at load 15-26 (2
// cores): the regex and compiled rows (CPU time) stayed within +4% of their baseline; the HTTP row
// (wall clock, fastest of 240 pages) within +9%; the parse rows (CPU time too, but sub-microsecond
// calls whose JIT outcome differs between processes) within +31%, once +64%.
const MARGINS = { HTTP: 0.25, parse: 0.4, regex: 0.25, compiled: 0.25 };
const marginOf = (row) =>
  process.env.BENCH_CHECK_MARGIN !== undefined
    ? Number(process.env.BENCH_CHECK_MARGIN)
    : (MARGINS[row.split(' ')[0]] ?? 0.25);
const HTTP_ROW = 'HTTP page of 500 / bare node:http';
const HTTP_GET_ROW = 'HTTP get of a rule / bare node:http';
const ROUNDS = Number(process.env.BENCH_CHECK_ROUNDS ?? 15);
const RECORDS = 50_000;
/**
 * Readings at most, each by a process of its own after the first: how the JIT settles differs
 * between processes and holds within one. On an idle machine (2026-12-02) the parse row `name eq
 * "web-.*"` read from 0.9x to 2.9x between processes (listkit's parse of it 0.74-1.98 us in ten),
 * and a row worse in one process was worse again in that process's second reading; a real
 * regression is worse in every process.
 */
const READINGS = 4;
/** Processes whose median per row `--write-baseline` records. */
const BASELINE_RUNS = 7;

/** Wall-clock ms: for the HTTP row, whose time is spent waiting on sockets as well. */
const wallClock = () => performance.now();
/**
 * CPU ms of this process (user + system): for the synchronous rows. On a loaded machine a
 * process waits for a core, and wall-clock time counts the wait; CPU time does not. At load
 * average 16-18 (2 cores) the regex rows' fastest and median CPU-time ratios agreed within 0.05x
 * where wall-clock ones moved by 0.3x between runs.
 */
const cpuClock = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * The fastest ms of each of `fns` (async or not), timed in rotation by `clock`. The fastest, not
 * the median: other processes' load only ever adds time, and on a loaded machine the median of a
 * short run moves by several times where the fastest sample holds.
 */
async function race(fns, { rounds = ROUNDS, warmup = 5, clock = cpuClock } = {}) {
  const times = fns.map(() => []);
  for (let round = -warmup; round < rounds; round++) {
    for (let i = 0; i < fns.length; i++) {
      const start = clock();
      await fns[i]();
      if (round >= 0) times[i].push(clock() - start);
    }
  }
  return times.map((t) => Math.min(...t));
}

/** `fn` called `times` times, as one timed unit. */
const repeated = (fn, times) => () => {
  for (let i = 0; i < times; i++) fn();
};

const rules = sampleForwardingRules(RECORDS);

/** Every ratio row once: { row name: ratio }. */
async function measureRatios() {
  const ratios = {};

  // HTTP page / bare node:http
  {
    const project = 'my-project';
    const region = 'us-central1';
    const regionUrl = `https://www.googleapis.com/compute/v1/projects/${project}/regions/${region}`;
    const seed = {
      forwardingRules: sampleForwardingRules(2_000, { project }).map((rule) => ({
        project,
        region,
        rule: { ...rule, region: regionUrl },
      })),
    };
    const emulator = await createEmulator({ seed });
    const url = await emulator.listen(0, '127.0.0.1');
    const page = `${url}/compute/v1/projects/${project}/regions/${region}/forwardingRules?maxResults=500`;
    const headers = { authorization: 'Bearer x', 'accept-encoding': 'identity' };
    const get = (target) =>
      new Promise((resolve, reject) => {
        request(target, { headers }, (res) => {
          const chunks = [];
          res.on('data', (chunk) => chunks.push(chunk));
          res.on('end', () => resolve(Buffer.concat(chunks)));
        })
          .on('error', reject)
          .end();
      });
    const rule = `${url}/compute/v1/projects/${project}/regions/${region}/forwardingRules/${seed.forwardingRules[0].rule.name}`;
    // The bare server answers each path with the bytes the emulator sent for it.
    const answers = { '/page': await get(page), '/rule': await get(rule) };
    const bare = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(answers[req.url]);
    });
    await new Promise((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const bareUrl = `http://127.0.0.1:${bare.address().port}`;
    const [emu, raw] = await race([() => get(page), () => get(`${bareUrl}/page`)], {
      rounds: ROUNDS * 16,
      warmup: 10,
      clock: wallClock,
    });
    // A small answer's time is mostly fixed costs, which a short run has not yet optimised:
    // more rounds (each is a tenth of a page's time).
    const [emuGet, rawGet] = await race([() => get(rule), () => get(`${bareUrl}/rule`)], {
      rounds: ROUNDS * 100,
      warmup: 200,
      clock: wallClock,
    });
    ratios[HTTP_ROW] = emu / raw;
    ratios[HTTP_GET_ROW] = emuGet / rawGet;
    await new Promise((resolve) => bare.close(resolve));
    await emulator.close();
  }

  // run.mjs §3: regex filter through the engine / raw re2js (the engine rows; the literal fast path
  // calls no engine)
  for (const { pattern, note } of PATTERNS.filter((p) => p.note === 'engine')) {
    const viaEngine = compileFilter(regexFilter(pattern), forwardingRuleSchema, {
      regexEngine: re2jsEngine,
    });
    const re2js = RE2JS.compile(pattern);
    // The peer reads the name from the same rules, as the filter must (run.mjs §3).
    const [engine, raw] = await race([
      counting(viaEngine.matches, rules),
      counting((r) => re2js.testExact(r.name), rules),
    ]);
    ratios[`regex \`${pattern}\` (${note}) / raw re2js`] = engine / raw;
    viaEngine.dispose();
  }

  // run.mjs §1: parse / cel-js parse, the filters and the regex filters
  const parseRows = [
    ...FILTERS,
    ...PATTERNS.map(({ pattern }) => ({
      aip: regexFilter(pattern),
      cel: `r.name.matches(${JSON.stringify(`^(?:${pattern})$`)})`,
    })),
  ];
  // Both parsers warm on every expression first, so that no row is timed while the JIT is at work.
  for (const { aip, cel } of parseRows) {
    for (let i = 0; i < 500; i++) {
      parseFilter(aip);
      celParse(cel);
    }
  }
  for (const { aip, cel } of parseRows) {
    const [lk, ce] = await race([
      repeated(() => parseFilter(aip), 300),
      repeated(() => celParse(cel), 300),
    ]);
    ratios[`parse \`${aip}\` / cel-js`] = lk / ce;
  }

  // run.mjs §2: compiled evaluation / hand-written predicate
  for (const { aip, js } of FILTERS) {
    const compiled = compileFilter(aip, forwardingRuleSchema);
    const [lk, hand] = await race([counting(compiled.matches, rules), counting(js, rules)]);
    ratios[`compiled \`${aip}\` / hand-written`] = lk / hand;
    compiled.dispose();
  }
  return ratios;
}

const load = loadavg()[0].toFixed(1);
/** Every ratio row once, measured by a process of its own (`--ratios-json`). */
const ratiosOfNewProcess = () =>
  JSON.parse(
    execFileSync(process.execPath, [new URL(import.meta.url).pathname, '--ratios-json'], {
      encoding: 'utf8',
    }),
  );
if (process.argv.includes('--ratios-json')) {
  // One run's ratios for --write-baseline, from a process of its own.
  console.log(JSON.stringify(await measureRatios()));
  process.exit(0);
}
if (process.argv.includes('--write-baseline')) {
  // The median of seven runs per row, each in a process of its own as `pnpm bench:check` runs:
  // one run's fluke would otherwise become the baseline, and later runs in one process read
  // warmer (the first parse row 10-25% lower) than a check ever does. Three were too few for the
  // parse rows, which move by 2x between processes: the median of three written on 2026-12-01
  // sat 19-31% under the median of twelve processes of the same code a day later.
  const runs = Array.from({ length: BASELINE_RUNS }, ratiosOfNewProcess);
  const ratios = Object.fromEntries(
    Object.keys(runs[0]).map((k) => [
      k,
      runs.map((r) => r[k]).sort((a, b) => a - b)[BASELINE_RUNS >> 1],
    ]),
  );
  const rounded = Object.fromEntries(
    Object.entries(ratios).map(([k, v]) => [k, Number(v.toFixed(2))]),
  );
  writeFileSync(
    BASELINE,
    `${JSON.stringify({ loadAverage: Number(load), ratios: rounded }, null, 2)}\n`,
  );
  console.log(`wrote ${BASELINE.pathname} (load average ${load})`);
  process.exit(0);
}

const baseline = JSON.parse(readFileSync(BASELINE, 'utf8')).ratios;
const isWorse = (name, value) =>
  baseline[name] !== undefined && value > baseline[name] * (1 + marginOf(name));
let ratios = await measureRatios();
for (let reading = 2; reading <= READINGS; reading++) {
  const suspects = Object.keys(ratios).filter((name) => isWorse(name, ratios[name]));
  if (suspects.length === 0) break;
  console.log(
    `worse in reading ${reading - 1}, measured again by a new process: ${suspects.join('; ')}`,
  );
  const again = ratiosOfNewProcess();
  ratios = Object.fromEntries(
    Object.entries(ratios).map(([name, value]) => [name, Math.min(value, again[name] ?? value)]),
  );
}
let failed = 0;
console.log(`bench:check (load average ${load}; a ratio fails past its baseline x (1 + margin))`);
for (const [name, value] of Object.entries(ratios)) {
  const base = baseline[name];
  const margin = marginOf(name);
  const worse = isWorse(name, value);
  if (worse) failed++;
  const verdict = base === undefined ? 'no baseline' : worse ? 'WORSE' : 'ok';
  console.log(
    `${verdict.padEnd(11)} ${value.toFixed(2)}x (baseline ${base?.toFixed(2) ?? '-'}x, margin ${margin * 100}%)  ${name}`,
  );
}
if (failed) {
  console.log(`${failed} ratio(s) worse than their baseline by more than the margin`);
  process.exit(1);
}
