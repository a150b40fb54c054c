// listkit filter against jq and DuckDB over inputs of every size: 10^3, 10^5 and 10^6 NDJSON
// lines and a 50 MB one-line JSON array, one filter (an AND of two fields), each tool counting the
// matches (the counts must agree); listkit as installed (its worker threads, decision 96) and with
// --workers 1 (the main thread alone); then listkit alone over one-line arrays of 12.5, 25 and 50 MB,
// whose ms per MB stays flat when reading is linear. jq and listkit run as processes (start-up
// included, as in a pipeline); DuckDB runs in this process (`@duckdb/node-api`, its start-up not
// counted: it favours DuckDB). Run after a build: node test/bench/filter-sizes.mjs
import { execSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { generate, generateArray } from './rules-data.mjs';

const ROUNDS = 3;
const MB = 1_000_000;
const listkit = fileURLToPath(new URL('../../packages/cli/bin/listkit.js', import.meta.url));
const jqVersion = spawnSync('jq', ['--version'], { encoding: 'utf8' });
if (jqVersion.status !== 0) {
  console.log("filter-sizes: skipped, Debian's jq is not installed (apt-get install -y jq)");
  process.exit(0);
}
const FILTER = 'IPProtocol = TCP AND loadBalancingScheme = EXTERNAL';
const JQ_TEST = '.IPProtocol == "TCP" and .loadBalancingScheme == "EXTERNAL"';
const SQL_TEST = `"IPProtocol" = 'TCP' AND "loadBalancingScheme" = 'EXTERNAL'`;

const work = mkdtempSync(join(tmpdir(), 'listkit-bench-sizes-'));
const duck = await (await DuckDBInstance.create(':memory:')).connect();

/** The fastest of ROUNDS runs of `run` (which returns the count it found), in ms. */
async function best(run) {
  let fastest = Number.POSITIVE_INFINITY;
  let count;
  for (let round = 0; round < ROUNDS; round++) {
    const started = process.hrtime.bigint();
    count = await run();
    fastest = Math.min(fastest, Number(process.hrtime.bigint() - started) / 1e6);
  }
  return { ms: fastest, count: String(count).trim() };
}

function spawnCount(command, args) {
  const run = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

const listkitCount =
  (file, flags = []) =>
  () =>
    spawnCount(process.execPath, [listkit, 'filter', FILTER, file, '--output', 'count', ...flags]);
/** `uptime`'s line: the load beside every figure. */
const uptime = () => execSync('uptime', { encoding: 'utf8' }).trim();
const jqCount = (file, array) => () =>
  array
    ? spawnCount('jq', [`[.[] | select(${JQ_TEST})] | length`, file])
    : spawnCount('jq', ['-n', `reduce (inputs | select(${JQ_TEST})) as $r (0; . + 1)`, file]);
const duckCount = (file, array) => async () => {
  const format = array ? 'array' : 'newline_delimited';
  const reader = await duck.runAndReadAll(
    `SELECT count(*) FROM read_json('${file}', format = '${format}', maximum_object_size = 67108864) WHERE ${SQL_TEST}`,
  );
  return String(reader.getRows()[0][0]);
};

const inputs = [];
for (const lines of [1_000, 100_000, 1_000_000]) {
  const file = join(work, `rules-${lines}.ndjson`);
  await generate(file, lines);
  inputs.push({ name: `${lines.toLocaleString('en')} NDJSON lines`, file, array: false });
}
const arrays = [];
for (const megabytes of [12.5, 25, 50]) {
  const file = join(work, `rules-${megabytes}MB.json`);
  await generateArray(file, megabytes * MB);
  arrays.push({ name: `${megabytes} MB one-line array`, file, array: true });
}
inputs.push(arrays[2]);

console.log(
  `listkit filter '${FILTER}' --output count vs ${jqVersion.stdout.trim()} and DuckDB ${(await duck.runAndReadAll('SELECT version()')).getRows()[0][0]}; best of ${ROUNDS}; ${availableParallelism()} cores; at start: ${uptime()}\n`,
);
console.log(
  '| input | MB | matches | listkit ms | listkit --workers 1 ms | jq ms | DuckDB ms | jq / listkit | listkit / DuckDB |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
let failed = false;
for (const { name, file, array } of inputs) {
  const ours = await best(listkitCount(file));
  const alone = await best(listkitCount(file, ['--workers', '1']));
  const jq = await best(jqCount(file, array));
  const db = await best(duckCount(file, array));
  const size = statSync(file).size / MB;
  if (ours.count !== jq.count || ours.count !== db.count || alone.count !== ours.count) {
    failed = true;
    console.log(
      `| ${name} | MISMATCH: listkit ${ours.count}, --workers 1 ${alone.count}, jq ${jq.count}, DuckDB ${db.count} |`,
    );
    continue;
  }
  console.log(
    `| ${name} | ${size.toFixed(1)} | ${Number(ours.count).toLocaleString('en')} | ${ours.ms.toFixed(0)} | ${alone.ms.toFixed(0)} | ${jq.ms.toFixed(0)} | ${db.ms.toFixed(0)} | ${(jq.ms / ours.ms).toFixed(2)}x | ${(ours.ms / db.ms).toFixed(2)}x |`,
  );
}

// Start-up: one record on stdin, the runs of each program alternated, the fastest of STARTS; the
// first listkit run (not counted) writes its code cache, as a user's first run does.
const STARTS = 10;
const startUps = [
  ['listkit filter', process.execPath, [listkit, 'filter', 'a = 1']],
  ["node -e '' (Node alone)", process.execPath, ['-e', '']],
  ['jq', 'jq', ['-c', 'select(.a == 1)']],
];
spawnSync(process.execPath, [listkit, 'filter', 'a = 1'], { input: '{"a":1}\n' });
const fastest = startUps.map(() => Number.POSITIVE_INFINITY);
for (let round = 0; round < STARTS; round++) {
  startUps.forEach(([, command, args], i) => {
    const started = process.hrtime.bigint();
    const run = spawnSync(command, args, { input: '{"a":1}\n', encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${run.stderr}`);
    fastest[i] = Math.min(fastest[i], Number(process.hrtime.bigint() - started) / 1e6);
  });
}
console.log(`\nStart-up: one record on stdin, fastest of ${STARTS} (${uptime()}).\n`);
console.log('| program | ms |');
console.log('| --- | ---: |');
for (const [i, [name]] of startUps.entries()) console.log(`| ${name} | ${fastest[i].toFixed(0)} |`);

console.log('\nReading one-line arrays is linear: ms per MB stays flat as the size doubles.\n');
console.log('| one-line array | MB | listkit ms | listkit ms per MB | jq ms | jq ms per MB |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const { name, file } of arrays) {
  const size = statSync(file).size / MB;
  const ours = await best(listkitCount(file));
  const jq = await best(jqCount(file, true));
  console.log(
    `| ${name} | ${size.toFixed(1)} | ${ours.ms.toFixed(0)} | ${(ours.ms / size).toFixed(1)} | ${jq.ms.toFixed(0)} | ${(jq.ms / size).toFixed(1)} |`,
  );
}
console.log(`\nAt the end: ${uptime()}`);
duck.closeSync?.();
rmSync(work, { recursive: true, force: true });
if (failed) process.exit(1);
