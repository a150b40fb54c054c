// What `listkit serve` holds in memory once it answers: the process's resident set (VmRSS, and
// RssAnon, the part no file backs), and its peak (VmHWM), read from /proc after the start-up
// line, for the memory store, PGlite on a new data directory and PGlite on that directory again
// (an existing one). Each case is its own process, started from the built CLI with the sample
// data, as a user starts it; the figures are read SETTLE_MS after the emulator says it listens.
// Memory figures do not depend on the machine's load the way times do.
//
// A benchmark, not a test: it prints a table and never fails on a figure. Linux only (/proc).
// Knobs: BENCH_SERVE_MEMORY_SETTLE_MS (default 2000), BENCH_SERVE_MEMORY_ROUNDS (default 1).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../packages/cli/bin/listkit.js', import.meta.url));
const SETTLE_MS = Number(process.env.BENCH_SERVE_MEMORY_SETTLE_MS ?? 2000);
const ROUNDS = Number(process.env.BENCH_SERVE_MEMORY_ROUNDS ?? 1);
const START_TIMEOUT_MS = 120_000;

/** The lines of /proc/<pid>/status this bench reads, in MB. */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (field) => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) / 1024 : Number.NaN;
  };
  return { rss: mb('VmRSS'), anon: mb('RssAnon'), peak: mb('VmHWM') };
}

/** Starts `listkit serve` with `args`, measures it once it listens, stops it cleanly. */
function measure(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve ${args.join(' ')} did not start: ${stderr}`));
    }, START_TIMEOUT_MS);
    child.stderr.on('data', (chunk) => {
      const before = stderr;
      stderr += chunk;
      if (before.includes('listkit emulator on') || !stderr.includes('listkit emulator on')) return;
      const startMs = performance.now() - started;
      setTimeout(() => {
        const figures = { ...memoryOf(child.pid), startMs };
        child.once('exit', () => {
          clearTimeout(timer);
          resolve(figures);
        });
        child.kill('SIGINT');
      }, SETTLE_MS);
    });
    child.once('error', reject);
  });
}

const rows = [];
for (let round = 0; round < ROUNDS; round++) {
  const dir = join(mkdtempSync(join(tmpdir(), 'listkit-serve-memory-')), 'data');
  try {
    rows.push(['memory store', await measure([])]);
    rows.push(['PGlite, new data directory', await measure(['--data-dir', dir])]);
    rows.push(['PGlite, existing data directory', await measure(['--data-dir', dir])]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const f = (value) => value.toFixed(0).padStart(8);
console.log(`listkit serve at start (MB; read ${SETTLE_MS} ms after it listens)`);
console.log('| store                            |  VmRSS | RssAnon | VmHWM (peak) | start (s) |');
console.log('| -------------------------------- | ------ | ------- | ------------ | --------- |');
for (const [name, m] of rows) {
  console.log(
    `| ${name.padEnd(32)} | ${f(m.rss).slice(2)} | ${f(m.anon).slice(1)} | ${f(m.peak).padStart(12)} | ${(m.startMs / 1000).toFixed(1).padStart(9)} |`,
  );
}
