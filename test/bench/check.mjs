// `pnpm bench:check`: a guard against silent regressions. It runs the ratio rows of `pnpm bench`
// with few iterations (seconds, not minutes), each against its peer in the same run, and
// compares each ratio with the one recorded in test/bench/baseline.json: a ratio worse than its
// baseline by more than MARGIN fails the check (exit code 1). Ratios, not times: a ratio to a
// peer measured in the same rounds moves far less between machines, and under load, than a time.
//
//   HTTP page / bare node:http  a list page of 500 over loopback (identity) from the emulator,
//                               against a node:http server answering the same bytes (run.mjs has
//                               no HTTP row; http.mjs and http-gzip.mjs time it at length)
//   regex / raw re2js           run.mjs §3: compileFilter(`name eq "<p>"`).matches against
//                               RE2JS.compile(p).testExact(name), per pattern
//   parse / cel-js              run.mjs §1: parseFilter(aip) against cel-js parse(cel)
//   compiled / hand-written     run.mjs §2: compileFilter(aip).matches against a JS predicate
//
// Refresh the baseline on purpose (after a change that is meant to move a ratio, on a quiet
// machine): `node test/bench/check.mjs --write-baseline`, and commit test/bench/baseline.json.
// Knobs: BENCH_CHECK_MARGIN (default 0.3: a ratio may be 30% worse than its baseline),
// BENCH_CHECK_ROUNDS (default 15).
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { loadavg } from 'node:os';
import { compileFilter, parseFilter, re2jsEngine } from '@listkit/query';
import { createEmulator, forwardingRuleSchema, sampleForwardingRules } from '@listkit/service';
import { parse as celParse } from '@marcbachmann/cel-js';
import { RE2JS } from 're2js';
import { FILTERS, PATTERNS, regexFilter } from './ratio-cases.mjs';

const BASELINE = new URL('./baseline.json', import.meta.url);
const MARGIN = Number(process.env.BENCH_CHECK_MARGIN ?? 0.3);
const ROUNDS = Number(process.env.BENCH_CHECK_ROUNDS ?? 15);
const RECORDS = 50_000;

const now = () => performance.now();

/**
 * The fastest ms of each of `fns` (async or not), timed in rotation. The fastest, not the median:
 * other processes' load only ever adds time, and on a loaded machine the median of a short run
 * moves by several times where the fastest sample holds.
 */
async function race(fns, rounds = ROUNDS, warmup = 5) {
  const times = fns.map(() => []);
  for (let round = -warmup; round < rounds; round++) {
    for (let i = 0; i < fns.length; i++) {
      const start = now();
      await fns[i]();
      if (round >= 0) times[i].push(now() - start);
    }
  }
  return times.map((t) => Math.min(...t));
}

/** `fn` called `times` times, as one timed unit. */
const repeated = (fn, times) => () => {
  for (let i = 0; i < times; i++) fn();
};

/** A loop counting the items `pred` accepts; a fresh copy per case keeps its call site its own. */
const counting = (pred, items) => {
  const loop = new Function(
    'pred',
    'items',
    'let n = 0; for (let i = 0; i < items.length; i++) if (pred(items[i])) n++; return n;',
  );
  return () => loop(pred, items);
};

const rules = sampleForwardingRules(RECORDS);
const names = rules.map((r) => r.name);

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
    const bytes = await get(page);
    const bare = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(bytes);
    });
    await new Promise((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const bareUrl = `http://127.0.0.1:${bare.address().port}/`;
    const [emu, raw] = await race([() => get(page), () => get(bareUrl)], ROUNDS * 4, 10);
    ratios['HTTP page of 500 / bare node:http'] = emu / raw;
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
    const [engine, raw] = await race([
      counting(viaEngine.matches, rules),
      counting((s) => re2js.testExact(s), names),
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
if (process.argv.includes('--write-baseline')) {
  // The median of three runs per row: one run's fluke would otherwise become the baseline.
  const runs = [await measureRatios(), await measureRatios(), await measureRatios()];
  const ratios = Object.fromEntries(
    Object.keys(runs[0]).map((k) => [k, runs.map((r) => r[k]).sort((a, b) => a - b)[1]]),
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

const ratios = await measureRatios();
const baseline = JSON.parse(readFileSync(BASELINE, 'utf8')).ratios;
let failed = 0;
console.log(`bench:check (load average ${load}; a ratio fails past its baseline x ${1 + MARGIN})`);
for (const [name, value] of Object.entries(ratios)) {
  const base = baseline[name];
  const worse = base !== undefined && value > base * (1 + MARGIN);
  if (worse) failed++;
  const verdict = base === undefined ? 'no baseline' : worse ? 'WORSE' : 'ok';
  console.log(
    `${verdict.padEnd(11)} ${value.toFixed(2)}x (baseline ${base?.toFixed(2) ?? '-'}x)  ${name}`,
  );
}
if (failed) {
  console.log(`${failed} ratio(s) worse than the baseline by more than ${MARGIN * 100}%`);
  process.exit(1);
}
