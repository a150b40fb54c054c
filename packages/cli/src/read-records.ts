// Reads resources from files or stdin: NDJSON (streamed line by line, in constant memory), a JSON
// array, or a JSON object holding the array (a list response's `items`, an AIP-style plural
// field, or --items PATH). Gzip is recognised by its magic bytes, whatever the file is called.
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { CliError, EXIT } from './cli-error.js';

/** Where a record came from, for messages. */
export interface RecordOrigin {
  file: string;
  line: number;
}

/** Receives each record; returns false to stop reading (the page is complete). */
export type RecordSink = (record: unknown, origin: RecordOrigin) => boolean;

export interface ReadOptions {
  /** Path of the array inside a JSON document (`items`, `data.results`). */
  itemsPath?: string;
  /** Report malformed NDJSON lines through `onBadLine` and go on. */
  keepGoing: boolean;
  onBadLine: (message: string) => void;
}

const NEWLINE = 0x0a;

/**
 * Feeds every record of `file` (`-` for stdin) to `sink`, in order. Returns false when the sink
 * asked to stop. Throws CliError(EXIT.input) naming the file, line and column of malformed input.
 */
export async function readRecords(
  file: string,
  sink: RecordSink,
  options: ReadOptions,
): Promise<boolean> {
  const name = file === '-' ? '<stdin>' : file;
  let raw: Readable;
  try {
    raw = file === '-' ? process.stdin : await openFile(file);
  } catch (error) {
    throw new CliError(`${name}: ${(error as Error).message}`, EXIT.input);
  }
  const chunks = decompressed(raw, name);
  let lineNumber = 0;
  let carry: Buffer | undefined;
  // An object, so the closure's changes are seen by the narrowing below.
  const state: { mode: 'unknown' | 'ndjson' | 'document' } = { mode: 'unknown' };
  const isDocument = () => state.mode === 'document';
  const document: Buffer[] = [];
  let firstLine: string | undefined;

  const handleLine = (text: string): boolean => {
    lineNumber++;
    if (state.mode === 'unknown' && firstLine === undefined) {
      const trimmed = text.trimStart();
      if (trimmed === '') return true;
      if (!trimmed.startsWith('{')) {
        state.mode = 'document';
        return true;
      }
      // An object on one line: NDJSON if another line follows, otherwise a one-line document.
      try {
        JSON.parse(text);
      } catch {
        state.mode = 'document';
        return true;
      }
      firstLine = text;
      return true;
    }
    if (firstLine !== undefined) {
      if (text.trim() === '') return true;
      state.mode = 'ndjson';
      const first = firstLine;
      firstLine = undefined;
      if (!sink(JSON.parse(first), { file: name, line: lineNumber - 1 })) return false;
    }
    return ndjsonLine(text, name, lineNumber, sink, options);
  };

  // Until the first line decides between NDJSON and a JSON document, every byte is kept: a
  // document is parsed whole, from its first byte.
  let seen: Buffer[] = [];
  for await (const chunk of chunks) {
    if (state.mode === 'document') {
      document.push(chunk);
      continue;
    }
    if (state.mode === 'unknown') seen.push(chunk);
    else seen = [];
    let start = 0;
    let buffer: Buffer = chunk;
    if (carry) {
      buffer = Buffer.concat([carry, chunk]);
      carry = undefined;
    }
    for (;;) {
      const end = buffer.indexOf(NEWLINE, start);
      if (end < 0) break;
      const more = handleLine(buffer.toString('utf8', start, end));
      start = end + 1;
      if (isDocument()) break;
      if (!more) {
        raw.destroy();
        return false;
      }
    }
    if (isDocument()) {
      document.push(...seen);
      seen = [];
      continue;
    }
    if (start < buffer.length) carry = buffer.subarray(start);
  }
  if (state.mode !== 'document' && carry && carry.length > 0) {
    if (!handleLine(carry.toString('utf8'))) return false;
    if (isDocument()) document.push(...seen);
  }
  if (state.mode === 'document') return readDocument(document, name, sink, options);
  if (firstLine !== undefined) {
    // One object and nothing more: a list response holding the records, or one record.
    return readDocument([Buffer.from(firstLine)], name, sink, options);
  }
  return true;
}

function ndjsonLine(
  text: string,
  file: string,
  line: number,
  sink: RecordSink,
  options: ReadOptions,
): boolean {
  if (text.length === 0 || (text.charCodeAt(0) <= 32 && text.trim() === '')) return true;
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch (error) {
    const message = `${file}:${line}:${jsonErrorColumn(error as Error, text)}: malformed JSON: ${cleanMessage(error as Error)}`;
    if (!options.keepGoing) throw new CliError(message, EXIT.input);
    options.onBadLine(message);
    return true;
  }
  if (record === null || typeof record !== 'object' || Array.isArray(record)) {
    const message = `${file}:${line}:1: a line holds ${Array.isArray(record) ? 'an array' : JSON.stringify(record)}, not a JSON object`;
    if (!options.keepGoing) throw new CliError(message, EXIT.input);
    options.onBadLine(message);
    return true;
  }
  return sink(record, { file, line });
}

function readDocument(
  parts: Buffer[],
  file: string,
  sink: RecordSink,
  options: ReadOptions,
): boolean {
  const text = Buffer.concat(parts).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const offset = jsonErrorOffset(error as Error, text);
    const { line, column } = lineAndColumn(text, offset);
    throw new CliError(
      `${file}:${line}:${column}: malformed JSON: ${cleanMessage(error as Error)}`,
      EXIT.input,
    );
  }
  const records = recordsOf(value, file, options.itemsPath);
  for (const [i, record] of records.entries()) {
    if (record === null || typeof record !== 'object' || Array.isArray(record)) {
      throw new CliError(
        `${file}: item ${i} is ${JSON.stringify(record)}, not a JSON object`,
        EXIT.input,
      );
    }
    if (!sink(record, { file, line: 1 })) return false;
  }
  return true;
}

/** The array of records a JSON document holds. */
function recordsOf(value: unknown, file: string, itemsPath: string | undefined): unknown[] {
  if (itemsPath !== undefined) {
    let node = value;
    for (const step of itemsPath.split('.')) {
      node =
        node !== null && typeof node === 'object'
          ? (node as Record<string, unknown>)[step]
          : undefined;
    }
    if (!Array.isArray(node))
      throw new CliError(`${file}: --items ${itemsPath} is not an array`, EXIT.input);
    return node;
  }
  if (Array.isArray(value)) return value;
  if (value === null || typeof value !== 'object') {
    throw new CliError(`${file}: holds ${JSON.stringify(value)}, not records`, EXIT.input);
  }
  const object = value as Record<string, unknown>;
  if (Array.isArray(object.items)) return object.items;
  // An AIP-style list response: its one array of objects is the resource plural (`books`).
  const arrays = Object.entries(object).filter(
    ([, v]) =>
      Array.isArray(v) &&
      v.length > 0 &&
      v.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x)),
  );
  if (
    arrays.length === 1 &&
    Object.keys(object).every(
      (k) => k === arrays[0]![0] || /token|size|unreachable|kind|id|selfLink|warning/i.test(k),
    )
  ) {
    return arrays[0]![1] as unknown[];
  }
  if ('nextPageToken' in object && Object.values(object).every((v) => !Array.isArray(v))) return [];
  return [object];
}

async function openFile(path: string): Promise<Readable> {
  const stream = createReadStream(path);
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  return stream;
}

/** The stream's bytes, gunzipped when they start with gzip's magic bytes. */
async function* decompressed(raw: Readable, file: string): AsyncGenerator<Buffer> {
  const iterator = raw[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let head = await iterator.next();
  if (head.done) return;
  let first: Buffer = head.value;
  while (first.length < 2) {
    head = await iterator.next();
    if (head.done) break;
    first = Buffer.concat([first, head.value]);
  }
  async function* rest(): AsyncGenerator<Buffer> {
    yield first;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  if (first[0] !== 0x1f || first[1] !== 0x8b) {
    yield* rest();
    return;
  }
  const gunzip = Readable.from(rest()).pipe(createGunzip());
  try {
    for await (const chunk of gunzip) yield chunk as Buffer;
  } catch (error) {
    throw new CliError(`${file}: not valid gzip: ${(error as Error).message}`, EXIT.input);
  }
}

function cleanMessage(error: Error): string {
  return error.message
    .replace(/\s*in JSON at position \d+.*$/, '')
    .replace(/, ".*" is not valid JSON$/, '');
}

/** The 0-based offset V8 names in a JSON.parse error (at the end when it names none). */
function jsonErrorOffset(error: Error, text: string): number {
  const position = /position (\d+)/.exec(error.message);
  if (position) return Number(position[1]);
  const lineColumn = /line (\d+) column (\d+)/.exec(error.message);
  if (lineColumn) {
    const lines = text.split('\n').slice(0, Number(lineColumn[1]) - 1);
    return lines.reduce((sum, l) => sum + l.length + 1, 0) + Number(lineColumn[2]) - 1;
  }
  return text.length;
}

function jsonErrorColumn(error: Error, text: string): number {
  return jsonErrorOffset(error, text) + 1;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
