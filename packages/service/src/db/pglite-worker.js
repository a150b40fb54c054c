// @ts-check
/**
 * The thread that owns a PGlite database (see pglite-database.ts, which starts it and is the only
 * thing that talks to it). PGlite runs each statement to the end on the thread that calls it, so
 * in the server's own thread one slow statement stopped every request, health checks included;
 * here it stops only this thread, which the server can terminate from outside.
 *
 * Plain JavaScript, not TypeScript, so the same file runs as a worker from the sources (tests)
 * and from dist (tsup copies it as an entry of its own).
 *
 * Messages in: `{ id, text, params }` runs one statement (`alone: true` runs it outside any
 * transaction, for VACUUM); `{ id, text, script: true }` runs a text of statements as one
 * simple query; `{ id, close: true }` closes the database. Messages out: `{ ready: true }` once
 * open; `{ id, rows }`, `{ id, results }` (a script's rows per statement) or `{ id, error }` for
 * each message in.
 */
import { setFlagsFromString } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

/**
 * How V8 compiles PostgreSQL's WebAssembly, set before PGlite compiles it (the flags are read at
 * compile time; they are process-wide, and PGlite is the emulator's only WebAssembly). With V8's
 * defaults, opening a database runs enough of PostgreSQL's start-up code to send hundreds of
 * functions to the optimising compiler, on several threads; the compilers' scratch memory stays in
 * each thread's malloc arena after they finish: ~55 MB resident that no query uses. A tier-up
 * budget 300 times V8's (1.8 MB of code executed per function) leaves start-up code on the
 * baseline compiler, while the functions a page or an insert runs over and over still get
 * optimised within a few statements (`--liftoff-only` saves the same memory but leaves heavy
 * queries ~50% slower); one compilation task keeps the scratch memory to one arena.
 * BENCHMARKS.md "Start-up memory" has the figures.
 */
setFlagsFromString('--wasm-tiering-budget=540000000');
setFlagsFromString('--wasm-num-compilation-tasks=1');

const port = parentPort;
if (!port) throw new Error('pglite-worker.js runs as a worker thread');

/**
 * PostgreSQL's memory settings for one connection in one process. PGlite keeps PostgreSQL's
 * defaults, sized for a server of 100 connections: 128 MB of shared buffers, allocated and
 * written at start (the WebAssembly heap grew to 188 MB before a query ran). An emulator's tables
 * are read through files the operating system caches, so 16 MB of buffers hold a page's working
 * set; BENCHMARKS.md "Start-up memory" has the figures.
 */
const START_PARAMS = [
  ...PGlite.defaultStartParams,
  '-c',
  'shared_buffers=16MB',
  '-c',
  'max_connections=5',
];

/** @type {{ dataDir: string }} */
const { dataDir } = workerData;
const db = await PGlite.create(dataDir, { startParams: START_PARAMS });

/**
 * The fields of a database error the store reads (`code` above all), as plain data: an Error's
 * own properties do not survive postMessage's structured clone, only its message does.
 *
 * @param {unknown} error
 */
function describe(error) {
  if (!(error instanceof Error)) return { message: String(error) };
  /** @type {Record<string, unknown>} */
  const fields = { message: error.message };
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === 'string' || typeof value === 'number') fields[key] = value;
  }
  return fields;
}

port.on(
  'message',
  /** @param {{ id: number, text?: string, params?: unknown[], alone?: boolean, script?: boolean, close?: boolean }} message */
  async (message) => {
    const { id } = message;
    try {
      if (message.close) {
        await db.close();
        port.postMessage({ id, rows: [] });
        return;
      }
      const text = message.text ?? '';
      if (message.script) {
        const results = await db.exec(text);
        port.postMessage({ id, results: results.map((r) => r.rows) });
        return;
      }
      if (message.alone) {
        await db.exec(text);
        port.postMessage({ id, rows: [] });
        return;
      }
      const result = await db.query(text, message.params ?? []);
      port.postMessage({ id, rows: result.rows });
    } catch (error) {
      port.postMessage({ id, error: describe(error) });
    }
  },
);
port.postMessage({ ready: true });
