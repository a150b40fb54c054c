// listkit filter against jq on the same 10^6-line NDJSON file, with equivalent expressions; the
// file's raw read speed (cat > /dev/null) is the limit. Every row checks that both counted the
// same matches. Run after a build: node test/bench/filter-cli.mjs [lines]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from './rules-data.mjs';

const LINES = Number(process.argv[2] ?? 1_000_000);
const ROUNDS = 3;
const listkit = fileURLToPath(new URL('../../packages/cli/bin/listkit.js', import.meta.url));
const jq = spawnSync('jq', ['--version'], { encoding: 'utf8' });
if (jq.status !== 0) {
  console.log("filter-cli: skipped, Debian's jq is not installed (apt-get install -y jq)");
  process.exit(0);
}

const work = mkdtempSync(join(tmpdir(), 'listkit-bench-'));
const file = join(work, 'rules.ndjson');
await generate(file, LINES);

const ROWS = [
  ['equality', 'IPProtocol = TCP', 'select(.IPProtocol == "TCP")'],
  [
    'AND of two fields',
    'IPProtocol = TCP AND loadBalancingScheme = EXTERNAL',
    'select(.IPProtocol == "TCP" and .loadBalancingScheme == "EXTERNAL")',
  ],
  ['label lookup', 'labels.env = prod', 'select(.labels.env == "prod")'],
  [
    'timestamp comparison',
    'creationTimestamp > 2025-06-01T00:00:00Z',
    'select(.creationTimestamp > "2025-06-01T00:00:00Z")',
  ],
  ['regex (full match)', 'name eq "web-1.*"', 'select(.name | test("^web-1.*$"))'],
];

const best = (command, args) => {
  let fastest = Number.POSITIVE_INFINITY;
  let stdout = '';
  for (let round = 0; round < ROUNDS; round++) {
    const started = process.hrtime.bigint();
    const run = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 1 << 20 });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (run.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${run.stderr}`);
    fastest = Math.min(fastest, ms);
    stdout = run.stdout.trim();
  }
  return { ms: fastest, stdout };
};

const size = statSync(file).size;
const cat = best('sh', ['-c', `cat "${file}" > /dev/null`]);
console.log(
  `listkit filter vs jq ${jq.stdout.trim()}: ${LINES.toLocaleString('en')} lines, ${(size / 2 ** 20).toFixed(0)} MiB, best of ${ROUNDS}; cat > /dev/null ${cat.ms.toFixed(0)} ms (${(size / 2 ** 20 / (cat.ms / 1000)).toFixed(0)} MiB/s)\n`,
);
console.log('| expression | matches | listkit ms | jq ms | jq / listkit | listkit / cat |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
let failed = false;
for (const [name, filter, expression] of ROWS) {
  const ours = best(process.execPath, [listkit, 'filter', filter, file, '--output', 'count']);
  const theirs = best('jq', ['-n', `reduce (inputs | ${expression}) as $r (0; . + 1)`, file]);
  if (ours.stdout !== theirs.stdout) {
    failed = true;
    console.log(`| ${name} | MISMATCH: listkit ${ours.stdout}, jq ${theirs.stdout} | | | | |`);
    continue;
  }
  console.log(
    `| ${name} | ${Number(ours.stdout).toLocaleString('en')} | ${ours.ms.toFixed(0)} | ${theirs.ms.toFixed(0)} | ${(theirs.ms / ours.ms).toFixed(1)}x | ${(ours.ms / cat.ms).toFixed(1)}x |`,
  );
}
rmSync(work, { recursive: true, force: true });
if (failed) process.exit(1);
