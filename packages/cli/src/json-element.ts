// One element of a JSON array of records (its bytes found by the reader's byte scanner) read into
// a record, or the located problem with it: the one reading of an element, whether the main
// thread reads it (json-record-reader.ts) or a worker thread reads a batch of them
// (filter-worker.ts). An element's problem ends the run: arrays have no --keep-going.
import { located } from './ndjson-line.js';

/** What an element holds: a record, or the message of its problem. */
export type JsonElement = { kind: 'record'; record: object } | { kind: 'problem'; message: string };

/**
 * Reads the element `bytes` of `file`, begun at `origin` (its line and column, for messages).
 *
 * @example
 * ```ts
 * readJsonElement(Buffer.from('{"a":1}'), 'in.json', { line: 1, column: 2 }); // { kind: 'record', record: { a: 1 } }
 * readJsonElement(Buffer.from('7'), 'in.json', { line: 1, column: 2 }).kind; // 'problem': a record is 7, …
 * ```
 */
export function readJsonElement(
  bytes: Buffer,
  file: string,
  origin: { line: number; column: number },
): JsonElement {
  const text = bytes.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: 'problem', message: located(file, text, origin, error as Error) };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const message = `${file}:${origin.line}:${origin.column}: a record is ${JSON.stringify(value)}, not a JSON object`;
    return { kind: 'problem', message };
  }
  return { kind: 'record', record: value };
}

/**
 * Calls `visit` with each element of a batch: `spans` holds four numbers an element (its start
 * and end in `bytes`, its line and column); stops when `visit` says false, and returns false then.
 *
 * @example
 * ```ts
 * eachElement(bytes, [0, 7, 1, 2, 8, 15, 1, 10], (element, origin, index) => true);
 * ```
 */
export function eachElement(
  bytes: Buffer,
  spans: readonly number[],
  visit: (element: Buffer, origin: { line: number; column: number }, index: number) => boolean,
): boolean {
  for (let k = 0; k < spans.length; k += 4) {
    const origin = { line: spans[k + 2]!, column: spans[k + 3]! };
    if (!visit(bytes.subarray(spans[k]!, spans[k + 1]!), origin, k / 4)) return false;
  }
  return true;
}
