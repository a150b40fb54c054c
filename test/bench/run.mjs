// `pnpm bench`: @listkit/query (the BUILT packages, imported as a user would) against
// @marcbachmann/cel-js and hand-written JavaScript, over generated forwarding rules.
// A benchmark, not a test: it prints tables and never fails on a figure.
//
// Knobs (environment): BENCH_RECORDS (default 100000), BENCH_RUNS (timed runs, default 11),
// BENCH_CLOCK (`cpu`, the default: this process's CPU time; `wall`: the wall clock).

import { availableParallelism, cpus, loadavg } from 'node:os';
import { checkFilter, compileFilter, parseFilter, re2jsEngine } from '@listkit/query';
import { re2WasmEngine } from '@listkit/query/re2-wasm';
import { forwardingRuleSchema, sampleForwardingRules } from '@listkit/service';
import { parse as celParse } from '@marcbachmann/cel-js';
import { RE2 } from 're2-wasm';
import { RE2JS } from 're2js';
import { counting as countingLoop } from './counting-loop.mjs';
import { FILTERS, PATTERNS, regexFilter } from './ratio-cases.mjs';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 11);
const WARMUP = 4;

// ---------------------------------------------------------------------------------------------
// Harness

/**
 * Nanoseconds. By default the process's CPU time (user + system, microsecond steps): on a machine
 * shared with other work, a process waiting for a core adds wall-clock time to whichever case
 * it was timing, and CPU time does not count the wait (as bench:check, decision 0081). Every
 * sample here is 10 ms or more, so the microsecond steps do not matter. `BENCH_CLOCK=wall` for
 * the wall clock.
 */
const CLOCK = process.env.BENCH_CLOCK ?? 'cpu';
if (CLOCK !== 'cpu' && CLOCK !== 'wall') throw new Error(`BENCH_CLOCK must be cpu or wall`);
const now =
  CLOCK === 'cpu'
    ? () => {
        const { user, system } = process.cpuUsage();
        return (user + system) * 1000;
      }
    : () => performance.now() * 1e6;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Times every case WARMUP + RUNS times, round-robin (so drift and other load hit all cases
 * alike), and gives the median nanoseconds of one `fn()` call per case with the value its last
 * call returned. A full GC runs once before the warm-up rounds, not between samples: on a 2-core
 * machine the concurrent sweeping after a forced GC slows the next sample by up to several times.
 */
function race(cases) {
  globalThis.gc?.();
  const samples = cases.map(() => []);
  const results = cases.map(() => undefined);
  for (let round = -WARMUP; round < RUNS; round++) {
    for (let i = 0; i < cases.length; i++) {
      const start = now();
      results[i] = cases[i].fn();
      const elapsed = now() - start;
      if (round >= 0) samples[i].push(elapsed);
    }
  }
  return cases.map((c, i) => ({ name: c.name, ns: median(samples[i]), result: results[i] }));
}

/** A case that counts the items `pred` accepts, with a loop of its own (counting-loop.mjs). */
function counting(name, pred, items) {
  return { name, fn: countingLoop(pred, items) };
}

/** A case that calls `op` `times` times per sample (for per-call costs in the microseconds). */
function repeated(name, op, times) {
  return {
    name,
    fn: () => {
      let last;
      for (let i = 0; i < times; i++) last = op();
      return last;
    },
  };
}

/**
 * How many calls of `op` take about `targetMs` (at least 1). On the wall clock whatever the
 * BENCH_CLOCK: the process's CPU time also counts V8's compiler and GC threads, which right after
 * a warm-up can make one call read as 10 ms.
 */
function callsFor(op, targetMs = 10) {
  let times = 1;
  for (;;) {
    const start = performance.now();
    for (let i = 0; i < times; i++) op();
    const ms = performance.now() - start;
    if (ms >= targetMs || times >= 1 << 20) return Math.max(1, Math.round((times * targetMs) / ms));
    times *= 2;
  }
}

const fmt = (n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const ratio = (a, b) => `${fmt(a / b, 2)}x`;

/** Prints a Markdown table (first column left-aligned, the rest right-aligned). */
function table(headers, rows) {
  // A `|` inside a cell would end it in Markdown.
  const cells = [headers, ...rows].map((row) =>
    row.map((cell) => String(cell).replaceAll('|', '\\|')),
  );
  const widths = headers.map((_, c) => Math.max(3, ...cells.map((row) => row[c].length)));
  const line = (row) =>
    `| ${row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join(' | ')} |`;
  const rule = `|${widths.map((w, c) => (c === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  console.log([line(cells[0]), rule, ...cells.slice(1).map(line)].join('\n'));
  console.log();
}

// ---------------------------------------------------------------------------------------------
// The filters

// FILTERS, PATTERNS and regexFilter: ratio-cases.mjs (bench:check times the same rows).

// ---------------------------------------------------------------------------------------------
// Setup

const cpu = cpus()[0]?.model ?? 'unknown CPU';
console.log(`# listkit benchmarks`);
console.log();
console.log(
  `Node ${process.version}, ${availableParallelism()} cores (${cpu}), ${RECORDS.toLocaleString('en-US')} records, median of ${RUNS} runs after ${WARMUP} warm-up runs (interleaved), ${CLOCK === 'cpu' ? 'CPU time of this process' : 'wall clock'}, load average ${loadavg()[0].toFixed(1)}.`,
);

console.log();

let start = now();

// Check every listkit filter first; a filter that does not check is reported and skipped.
const usable = (text) => {
  try {
    const checked = checkFilter(parseFilter(text), forwardingRuleSchema);
    if (checked.ok) return true;
    console.log(`SKIPPED (does not check): ${text}`);
    for (const p of checked.problems) console.log(`  ${p.message}`);
  } catch (error) {
    console.log(`SKIPPED (does not parse): ${text}\n  ${error.message}`);
  }
  return false;
};
const filters = FILTERS.filter((f) => usable(f.aip));
const patterns = PATTERNS.filter((p) => usable(regexFilter(p.pattern)));

// ---------------------------------------------------------------------------------------------
// 1. Parse, check and compile

console.log('## 1. Parse / check / compile (µs per call)');
console.log();
console.log(
  'listkit `compile` is compileFilter(ast, schema): check + closure compile + canonical print; `total` is compileFilter(text, schema), a hit in its prepared-filter cache after the warm-up (parse, check and print skipped). Regex rows compile through the warm regex cache.',
);
console.log();
{
  const rows = [];
  const parseRows = [
    ...filters.map((f) => ({ aip: f.aip, cel: f.cel })),
    ...patterns.map((p) => ({
      aip: regexFilter(p.pattern),
      cel: `r.name.matches(${JSON.stringify(`^(?:${p.pattern})$`)})`,
    })),
  ];
  start = now();
  const opsOf = ({ aip, cel }) => {
    const ast = parseFilter(aip);
    return [
      () => parseFilter(aip),
      () => celParse(cel),
      () => checkFilter(ast, forwardingRuleSchema),
      () => compileFilter(ast, forwardingRuleSchema).dispose(),
      () => compileFilter(aip, forwardingRuleSchema).dispose(),
    ];
  };
  // Warm both parsers (and listkit's checker and compiler) on every expression first, so the
  // first row is not measured while the JIT is still at work.
  for (const row of parseRows) for (const op of opsOf(row)) for (let i = 0; i < 500; i++) op();
  for (const row of parseRows) {
    const { aip } = row;
    const ops = opsOf(row);
    const times = callsFor(ops[0]);
    const us = (ns) => ns / times / 1000;
    const [lkParse, celParseResult, lkCheck, lkCompile, lkTotal] = race(
      ['listkit parse', 'cel-js parse', 'listkit check', 'listkit compile', 'listkit total'].map(
        (name, i) => repeated(name, ops[i], times),
      ),
    );
    rows.push([
      `\`${aip}\``,
      fmt(us(lkParse.ns), 2),
      fmt(us(celParseResult.ns), 2),
      ratio(lkParse.ns, celParseResult.ns),
      fmt(us(lkCheck.ns), 2),
      fmt(us(lkCompile.ns), 2),
      fmt(us(lkTotal.ns), 2),
    ]);
  }
  table(
    [
      'filter',
      'listkit parse',
      'cel-js parse',
      'parse listkit/cel-js',
      'listkit check',
      'listkit compile',
      'listkit total',
    ],
    rows,
  );
  console.log(`(section took ${fmt((now() - start) / 1e9, 1)} s)`);
  console.log();
}

// Generated after the parse section, so that its small, allocation-heavy calls do not pay for
// collecting a heap that holds 100,000 records.
start = now();
const records = sampleForwardingRules(RECORDS);
const names = records.map((r) => r.name);
console.log(
  `Generated ${records.length.toLocaleString('en-US')} forwarding rules in ${fmt((now() - start) / 1e6, 0)} ms.`,
);
console.log();

// ---------------------------------------------------------------------------------------------
// 2. Evaluation

console.log(`## 2. Evaluation over ${records.length.toLocaleString('en-US')} records (ns/record)`);
console.log();
console.log(
  'listkit: compileFilter(text, forwardingRuleSchema).matches(r). cel-js: parse(cel) once, then the parsed function called per record with a reused `{ r }` context. hand-written: a plain JS predicate (the limit).',
);
console.log();
{
  start = now();
  // Compile every filter up front, as a service holding several filters would.
  const compiled = filters.map((f) => compileFilter(f.aip, forwardingRuleSchema));
  const rows = [];
  const counts = [];
  filters.forEach((f, i) => {
    const expr = celParse(f.cel);
    const context = { r: undefined };
    const cel = (r) => {
      context.r = r;
      return expr(context) === true;
    };
    const [lk, ce, js] = race([
      counting('listkit', compiled[i].matches, records),
      counting('cel-js', cel, records),
      counting('hand-written', f.js, records),
    ]);
    const per = (x) => x.ns / records.length;
    const same = lk.result === ce.result && lk.result === js.result;
    counts.push([`\`${f.aip}\``, lk.result, ce.result, js.result, same ? 'yes' : 'NO (mismatch)']);
    rows.push([
      `\`${f.aip}\``,
      fmt(per(lk)),
      fmt(per(ce)),
      fmt(per(js)),
      ratio(lk.ns, js.ns),
      ratio(lk.ns, ce.ns),
    ]);
  });
  table(
    ['filter', 'listkit', 'cel-js', 'hand-written', 'listkit/hand-written', 'listkit/cel-js'],
    rows,
  );
  console.log('Match counts:');
  console.log();
  table(['filter', 'listkit', 'cel-js', 'hand-written', 'agree'], counts);
  for (const c of compiled) c.dispose();
  console.log(`(section took ${fmt((now() - start) / 1e9, 1)} s)`);
  console.log();
}

// ---------------------------------------------------------------------------------------------
// 3. Regex-style filters per engine

console.log(
  `## 3. Regex-style filters over ${names.length.toLocaleString('en-US')} names (ns/record)`,
);
console.log();
console.log(
  'listkit: compileFilter(`name eq "<p>"`, schema, { regexEngine }).matches(r) over the records. raw re2js: (r) => RE2JS.compile(p).testExact(r.name); raw re2-wasm: (r) => new RE2(`^(?:p)$`, "u").test(r.name); V8 RegExp: (r) => new RegExp(`^(?:p)$`).test(r.name) (reference only). The raw loops read the name from the same records as listkit; `re2js, names` is raw re2js over an array of the names (the engine alone, without reading records).',
);
console.log();
{
  start = now();
  const rows = [];
  const counts = [];
  for (const { pattern, note } of patterns) {
    const text = regexFilter(pattern);
    const viaRe2js = compileFilter(text, forwardingRuleSchema, { regexEngine: re2jsEngine });
    const viaWasm = compileFilter(text, forwardingRuleSchema, { regexEngine: re2WasmEngine });
    const re2js = RE2JS.compile(pattern);
    const wasm = new RE2(`^(?:${pattern})$`, 'u');
    const v8 = new RegExp(`^(?:${pattern})$`);
    // The raw peers read `r.name` from the records, as the filter must: over rules of nine
    // shapes a field read is 10-20% of a match (issue 38), work an array of names skips.
    const [lkJs, rawJs, lkWasm, rawWasm, native, namesJs] = race([
      counting('listkit re2js', viaRe2js.matches, records),
      counting('raw re2js', (r) => re2js.testExact(r.name), records),
      counting('listkit re2-wasm', viaWasm.matches, records),
      counting('raw re2-wasm', (r) => wasm.test(r.name), records),
      counting('V8 RegExp', (r) => v8.test(r.name), records),
      counting('raw re2js, names', (s) => re2js.testExact(s), names),
    ]);
    const per = (x) => fmt(x.ns / names.length);
    rows.push([
      `\`${pattern}\` (${note})`,
      per(lkJs),
      per(rawJs),
      ratio(lkJs.ns, rawJs.ns),
      per(lkWasm),
      per(rawWasm),
      ratio(lkWasm.ns, rawWasm.ns),
      per(native),
      per(namesJs),
      ratio(lkJs.ns, namesJs.ns),
    ]);
    const all = [lkJs, rawJs, lkWasm, rawWasm, native, namesJs].map((x) => x.result);
    counts.push([
      `\`${pattern}\``,
      ...all,
      all.every((n) => n === all[0]) ? 'yes' : 'NO (mismatch)',
    ]);
    viaRe2js.dispose();
    viaWasm.dispose();
  }
  table(
    [
      'pattern',
      'listkit re2js',
      'raw re2js',
      'listkit/raw re2js',
      'listkit re2-wasm',
      'raw re2-wasm',
      'listkit/raw re2-wasm',
      'V8 RegExp',
      're2js, names',
      'listkit/re2js, names',
    ],
    rows,
  );
  console.log('Match counts:');
  console.log();
  table(
    [
      'pattern',
      'listkit re2js',
      'raw re2js',
      'listkit re2-wasm',
      'raw re2-wasm',
      'V8 RegExp',
      're2js, names',
      'agree',
    ],
    counts,
  );
  console.log(`(section took ${fmt((now() - start) / 1e9, 1)} s)`);
}
