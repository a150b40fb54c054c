// One NDJSON line read into a record, or the located problem with it: the one reading of a line,
// whether the main thread reads it (json-record-reader.ts) or a worker thread reads a batch of
// lines (filter-worker.ts), so that both give the same record and the same message.
import { CliError, EXIT } from './cli-error.js';
import { type InputLimits, nestedTooDeep, recordTooLarge } from './input-limits.js';
import { locateJsonError } from './json-error-locator.js';
import { nestsTooDeep } from './json-nesting.js';

/** What a line holds: nothing (blank), a record, or a problem (reported, or skipped with --keep-going). */
export type NdjsonLine =
  | { kind: 'blank' }
  | { kind: 'record'; record: object }
  | { kind: 'problem'; message: string };

const BLANK: NdjsonLine = { kind: 'blank' };

/**
 * Reads line `line` of `file` (its bytes without the line break). A line longer than
 * `limits.maxRecordBytes` throws: no --keep-going skips a bound.
 *
 * @example
 * ```ts
 * readNdjsonLine(Buffer.from('{"a":1}'), 'in.ndjson', 3, DEFAULT_LIMITS); // { kind: 'record', record: { a: 1 } }
 * readNdjsonLine(Buffer.from('{"a":}'), 'in.ndjson', 3, DEFAULT_LIMITS).kind; // 'problem' (in.ndjson:3:6: …)
 * ```
 */
export function readNdjsonLine(
  bytes: Buffer,
  file: string,
  line: number,
  limits: InputLimits,
): NdjsonLine {
  if (bytes.length > limits.maxRecordBytes) throw recordTooLarge(`${file}:${line}:1`, limits);
  const text = bytes.toString('utf8');
  if (text.length === 0 || (text.charCodeAt(0) <= 32 && text.trim() === '')) return BLANK;
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch (error) {
    return { kind: 'problem', message: located(file, text, { line, column: 1 }, error as Error) };
  }
  if (text.length > limits.maxDepth) {
    const tooDeep = nestsTooDeep(text, limits.maxDepth);
    if (tooDeep) {
      const message = nestedTooDeep(`${file}:${line}:${tooDeep.column}`, limits).message;
      return { kind: 'problem', message };
    }
  }
  if (record === null || typeof record !== 'object' || Array.isArray(record)) {
    const holds = Array.isArray(record) ? 'an array' : JSON.stringify(record);
    return {
      kind: 'problem',
      message: `${file}:${line}:1: a line holds ${holds}, not a JSON object`,
    };
  }
  return { kind: 'record', record };
}

/**
 * The problem of a line as the run treats it: an error, or with --keep-going a report on stderr
 * (the line is skipped). A line nested too deep without --keep-going is the nesting error.
 */
export function lineProblem(
  message: string,
  keepGoing: boolean,
  report: (m: string) => void,
): void {
  if (!keepGoing) throw new CliError(message, EXIT.input);
  report(message);
}

/** `file:line:column: malformed JSON: …` for a text that JSON.parse refused, begun at `origin`. */
export function located(
  file: string,
  text: string,
  origin: { line: number; column: number },
  error: Error,
): string {
  const site = locateJsonError(text) ?? { offset: text.length, message: error.message };
  const before = text.slice(0, site.offset);
  const lastNewline = before.lastIndexOf('\n');
  let line = origin.line;
  for (let k = before.indexOf('\n'); k >= 0; k = before.indexOf('\n', k + 1)) line++;
  const column = lastNewline < 0 ? origin.column + site.offset : site.offset - lastNewline;
  return `${file}:${line}:${column}: malformed JSON: ${site.message}`;
}

/**
 * Calls `visit` with each line of `bytes` (whole lines, the last perhaps without its break), the
 * first being line `line`, and the byte offset where each begins; stops when `visit` says false.
 * Returns false when it was stopped.
 *
 * @example
 * ```ts
 * eachLine(Buffer.from('{"a":1}\n{"a":2}\n'), 7, (bytes, line) => { console.log(line); return true; }); // 7, 8
 * ```
 */
export function eachLine(
  bytes: Buffer,
  line: number,
  visit: (line: Buffer, number: number, offset: number) => boolean,
): boolean {
  let offset = 0;
  let number = line;
  while (offset < bytes.length) {
    const newline = bytes.indexOf(0x0a, offset);
    const end = newline < 0 ? bytes.length : newline;
    if (!visit(bytes.subarray(offset, end), number, offset)) return false;
    offset = end + 1;
    number++;
  }
  return true;
}
