// Records out of a byte stream of JSON, in one pass, holding at most one record at a time: a JSON
// array (element by element, however long its one line), a list response (its records' array
// element by element once it is larger than HOLD_BYTES), or NDJSON (line by line). A small byte
// scanner finds where each record begins and ends (strings, brackets, depth); V8's JSON.parse
// builds it. Time is linear in the input: nothing read is copied again for the next chunk.
import { isAscii } from 'node:buffer';
import { CliError, EXIT } from './cli-error.js';
import { type InputLimits, nestedTooDeep, recordTooLarge } from './input-limits.js';
import { readJsonElement } from './json-element.js';
import { showChar } from './json-error-locator.js';
import { lineProblem, located, readNdjsonLine } from './ndjson-line.js';
import type { LineBatch } from './worker-pool.js';

/** Where a record began, for messages. */
export interface RecordOrigin {
  file: string;
  line: number;
  column: number;
}

/** Receives each record; returns false to stop reading (the page is complete). */
export type RecordSink = (record: object, origin: RecordOrigin) => boolean;

/** What a JSON document (not NDJSON) turned out to hold: its records, or one record. */
export type DocumentRecords = (value: unknown, where: string) => unknown[];

export interface RecordReaderOptions {
  /** A one-step --items: the key of the records' array in a list response, streamed at once. */
  itemsKey?: string;
  /** Report malformed NDJSON lines through `onBadLine` and go on. */
  keepGoing: boolean;
  onBadLine: (message: string) => void;
  limits: InputLimits;
  /** The records of a whole top-level object (a list response, or the object itself). */
  recordsOf: DocumentRecords;
  /** Where whole NDJSON lines go to be read by worker threads, once it takes them. */
  lineBatches?: LineBatchSink;
}

/** Takes batches of whole NDJSON lines (worker-pool.ts). */
export interface LineBatchSink {
  /**
   * Asked before each chunk's lines, with the bytes read so far, until it says true: from then
   * on every line of the input goes out in batches.
   */
  takes(bytesRead: number): boolean;
  submit(batch: LineBatch): void;
}

/**
 * A top-level object held whole up to this size is classified exactly (list response or one
 * record); past it, while in an array that can be its records, that array is streamed.
 */
export const HOLD_BYTES = 1024 * 1024;
/** Keys a list response has besides its records (Compute's `kind`, AIP's `nextPageToken`). */
export const METADATA_KEY = /token|size|unreachable|kind|id|selfLink|warning/i;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** Bytes being gathered into one value: pieces of earlier chunks, and where it began. */
interface Capture {
  pieces: Buffer[];
  bytes: number;
  /** Index in the current chunk where the not-yet-saved part begins. */
  from: number;
  line: number;
  column: number;
}

/** An array inside a held top-level object that may be its records. */
interface Candidate {
  key: string;
  /** Element spans, relative to the held object's first byte. */
  elements: { start: number; end: number; line: number; column: number }[];
  open: { start: number; line: number; column: number } | undefined;
  valid: boolean;
  /** An element ended and no comma followed yet. */
  needComma: boolean;
}

function countContinuation(chunk: Buffer, from: number, to: number): number {
  if (to <= from || isAscii(chunk.subarray(from, to))) return 0;
  let count = 0;
  for (let i = from; i < to; i++) if ((chunk[i]! & 0xc0) === 0x80) count++;
  return count;
}

function isBlank(chunk: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = chunk[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== NEWLINE) return false;
  }
  return true;
}

function kindOfStart(c: number): string {
  if (c === QUOTE) return 'a string';
  if (c === 0x74 || c === 0x66) return 'a boolean';
  if (c === 0x6e) return 'null';
  if (c === OPEN_ARRAY) return 'an array';
  return 'a number';
}

const isScalarStart = (c: number) =>
  c === QUOTE || c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e;

export class JsonRecordReader {
  // Position: lines and columns (in characters) for messages.
  private line = 1;
  private base = 0;
  private lineStart = 0;
  private lineContinuation = 0;
  private counted = 0;
  private chunk: Buffer = Buffer.alloc(0);
  private started = false;

  private mode: 'scan' | 'lines' | 'trailing' = 'scan';
  /** After the first top-level value: what later ones are (NDJSON records, or list responses). */
  private later: 'first' | 'records' | 'lists' = 'first';
  private linesAfterNewline = false;

  // The scanner.
  private readonly stack: Uint8Array;
  /** The next line break at or after the scan position in this chunk (its length: none). */
  private newlineAt = -1;
  private stopped = false;
  /** An element of the records' array ended: a comma must come before the next. */
  private needComma = false;
  /** Every key of the held top-level object before the current one is list metadata. */
  private metadataBeforeCurrent = true;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private top: Capture | undefined;
  private topIsArray = false;
  private element: Capture | undefined;
  /** Depth at which records are elements (1: a top-level array; 2: a streamed list response). */
  private elementDepth = -1;
  private itemIndex = 0;
  private afterComma = false;

  // Keys of a top-level object.
  private expectKey = false;
  private key: Capture | undefined;
  private currentKey = '';
  private onlyMetadataKeys = true;
  private candidate: Candidate | undefined;
  private streamingList = false;
  private listClosed = false;

  // NDJSON lines.
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Lines go out in batches (to worker threads), not read here. */
  private batching = false;
  /** Elements of a top-level array go out in batches, not read here. */
  private batchingElements = false;
  /** Elements of this chunk waiting to go out together: their bytes and where each began. */
  private elementBatch: { bytes: Buffer; line: number; column: number }[] = [];

  constructor(
    private readonly file: string,
    private readonly sink: RecordSink,
    private readonly options: RecordReaderOptions,
  ) {
    this.stack = new Uint8Array(options.limits.maxDepth + 2);
  }

  /** Reads one chunk; false when the sink asked to stop. */
  push(chunk: Buffer): boolean {
    this.chunk = chunk;
    this.counted = 0;
    let i = 0;
    if (!this.started) {
      this.started = true;
      // A UTF-8 byte-order mark is not part of the JSON; columns count from after it.
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) {
        i = 3;
        this.lineStart = 3;
        this.counted = 3;
      }
    }
    this.newlineAt = -1;
    let more = true;
    try {
      while (i < chunk.length && more) {
        i = this.mode === 'lines' ? this.lines(chunk, i) : this.scan(chunk, i);
        more = i >= 0 && !this.stopped;
      }
      if (more) {
        this.saveChunkEnd(chunk);
        more = !this.stopped;
      }
    } finally {
      // The elements before an error go out too: their matches are written before it.
      if (this.elementBatch.length > 0) this.submitElements();
    }
    this.lineContinuation += countContinuation(chunk, this.counted, chunk.length);
    this.base += chunk.length;
    return more;
  }

  /** The input ended: reports what is left open, reads a last line without a newline. */
  end(): void {
    if (this.mode === 'lines') {
      if (this.pendingBytes === 0) return;
      const bytes = Buffer.concat(this.pending);
      if (this.batching) {
        this.options.lineBatches!.submit({ bytes, file: this.file, line: this.line, lines: 1 });
      } else {
        this.ndjsonLine(bytes, this.line);
      }
      return;
    }
    if (this.inString || this.depth > 0) {
      const open = this.top ?? this.element;
      // Every chunk is counted: the end's column is the bytes since the line began, less the
      // continuation bytes of multi-byte characters.
      const column = this.base - this.lineStart - this.lineContinuation + 1;
      const detail = open ? `: the value begun at ${open.line}:${open.column} is not closed` : '';
      throw new CliError(
        `${this.file}:${this.line}:${column}: malformed JSON: unexpected end of input${detail}`,
        EXIT.input,
      );
    }
  }

  // --- positions -------------------------------------------------------------------------------

  /** The 1-based column of byte `i` of the current chunk, in characters. */
  private column(i: number): number {
    const from = Math.max(this.counted, this.lineStart - this.base);
    if (from < i) this.lineContinuation += countContinuation(this.chunk, from, i);
    this.counted = Math.max(from, i);
    return this.base + i - this.lineStart - this.lineContinuation + 1;
  }

  private newline(i: number): void {
    this.line++;
    this.lineStart = this.base + i + 1;
    this.lineContinuation = 0;
    this.counted = i + 1;
  }

  private where(i: number): string {
    return `${this.file}:${this.line}:${this.column(i)}`;
  }

  private malformed(message: string, detail = '', i = this.chunk.length): CliError {
    return new CliError(`${this.where(i)}: malformed JSON: ${message}${detail}`, EXIT.input);
  }

  // --- the scanner -------------------------------------------------------------------------------

  /** Scans from `i`; returns where it stopped (the chunk's end, or a switch to lines), -1 to stop. */
  private scan(chunk: Buffer, start: number): number {
    let i = start;
    const n = chunk.length;
    while (i < n) {
      if (this.inString) {
        i = this.stringEnd(chunk, i);
        continue;
      }
      const c = chunk[i]!;
      if (c === 0x20 || c === 0x09 || c === 0x0d) {
        i++;
      } else if (c === NEWLINE) {
        this.newline(i);
        i++;
        if (this.depth === 0 && this.linesAfterNewline) {
          this.mode = 'lines';
          return i;
        }
      } else if (c === QUOTE) {
        this.valueStart(c, i);
        if (this.depth === 1 && !this.topIsArray && this.expectKey) {
          this.key = { pieces: [], bytes: 0, from: i, line: this.line, column: 0 };
        }
        this.inString = true;
        i++;
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (!this.open(c, i)) return -1;
        i++;
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        if (!this.close(c, i)) return -1;
        i++;
      } else if (c === COMMA) {
        this.comma(i);
        i++;
      } else if (c === COLON) {
        i++;
      } else {
        this.valueStart(c, i);
        i++;
      }
    }
    return i;
  }

  /** A comma: the next key of a top-level object, or between two records (never before one). */
  private comma(i: number): void {
    if (this.depth === 0) throw this.malformed(`unexpected ","`, '', i);
    if (this.depth === 1 && !this.topIsArray) this.expectKey = true;
    if (this.depth === this.elementDepth) {
      if (!this.needComma) throw this.malformed(`unexpected "," where a record should be`, '', i);
      this.afterComma = true;
      this.needComma = false;
    } else if (this.depth === 2 && this.candidate) {
      this.candidate.needComma = false;
    }
  }

  /** Checks the first byte of a scalar: records are objects, and the top level holds records. */
  private valueStart(c: number, i: number): void {
    if (this.depth === 0) {
      if (this.mode === 'trailing') {
        throw this.malformed(
          `unexpected ${showChar(String.fromCharCode(c), 0)} after the JSON array`,
          '',
          i,
        );
      }
      if (isScalarStart(c)) {
        throw new CliError(
          `${this.where(i)}: the input holds ${kindOfStart(c)}, not records (JSON objects)`,
          EXIT.input,
        );
      }
      throw this.malformed(`unexpected ${JSON.stringify(String.fromCharCode(c))}`, '', i);
    }
    if (this.depth === this.elementDepth && !this.element) this.notAnObject(c, i);
    if (this.depth === 2 && this.candidate && this.candidate.open === undefined) {
      this.candidate.valid = false;
    }
  }

  private notAnObject(c: number, i: number): never {
    throw new CliError(
      `${this.where(i)}: item ${this.itemIndex} is ${kindOfStart(c)}, not a JSON object`,
      EXIT.input,
    );
  }

  /** Finds the end of a string from `i`; returns the index after it, or the chunk's end. */
  private stringEnd(chunk: Buffer, start: number): number {
    let i = start;
    if (this.escaped) {
      this.escaped = false;
      i++;
    }
    for (;;) {
      const quote = chunk.indexOf(QUOTE, i);
      const stop = quote < 0 ? chunk.length : quote;
      // The next line break, found once per chunk region (not once per string: that would be
      // quadratic on a one-line input).
      if (this.newlineAt < i) {
        const found = chunk.indexOf(NEWLINE, i);
        this.newlineAt = found < 0 ? chunk.length : found;
      }
      const newline = this.newlineAt;
      if (newline < stop) {
        throw this.malformed(
          'a line break inside a string (the string is not closed)',
          '',
          newline,
        );
      }
      if (quote < 0) {
        let slashes = 0;
        for (let k = chunk.length - 1; k >= i && chunk[k] === BACKSLASH; k--) slashes++;
        this.escaped = slashes % 2 === 1;
        return chunk.length;
      }
      let slashes = 0;
      for (let k = quote - 1; k >= i && chunk[k] === BACKSLASH; k--) slashes++;
      if (slashes % 2 === 1) {
        i = quote + 1;
        continue;
      }
      this.inString = false;
      if (this.key) this.keyRead(chunk, quote + 1);
      return quote + 1;
    }
  }

  private keyRead(chunk: Buffer, end: number): void {
    const key = this.key!;
    this.key = undefined;
    const bytes = Buffer.concat([...key.pieces, chunk.subarray(key.from, end)]);
    this.currentKey = JSON.parse(bytes.toString('utf8')) as string;
    this.expectKey = false;
    if (this.listClosed && !METADATA_KEY.test(this.currentKey)) {
      throw new CliError(
        `${this.where(end)}: '${this.currentKey}' follows the records of a list response read as a stream; name the records' array with --items`,
        EXIT.input,
      );
    }
    this.metadataBeforeCurrent = this.onlyMetadataKeys;
    if (!METADATA_KEY.test(this.currentKey)) this.onlyMetadataKeys = false;
  }

  private open(c: number, i: number): boolean {
    if (this.depth === 0) this.topStart(c, i);
    else if (this.depth === this.elementDepth) {
      if (c === OPEN_ARRAY) this.notAnObject(c, i);
      if (this.needComma) throw this.malformed(`expected ',' or ']' between records`, '', i);
      this.element = { pieces: [], bytes: 0, from: i, line: this.line, column: this.column(i) };
      this.afterComma = false;
    } else if (this.candidate && this.depth === 2) {
      if (c === OPEN_ARRAY) this.candidate.valid = false;
      else
        this.candidate.open = {
          start: this.heldOffset(i),
          line: this.line,
          column: this.column(i),
        };
    } else if (this.depth === 1 && !this.topIsArray && c === OPEN_ARRAY) {
      this.arrayInTopObject(i);
    }
    this.stack[this.depth++] = c;
    if (this.depth > this.options.limits.maxDepth) {
      throw nestedTooDeep(this.where(i), this.options.limits);
    }
    if (this.depth === 1 && c === OPEN_OBJECT) this.expectKey = true;
    return !this.stopped;
  }

  private close(c: number, i: number): boolean {
    const expected = c === CLOSE_OBJECT ? OPEN_OBJECT : OPEN_ARRAY;
    if (this.depth === 0 || this.stack[this.depth - 1] !== expected) {
      throw this.malformed(`unexpected ${JSON.stringify(String.fromCharCode(c))}`, '', i);
    }
    if (c === CLOSE_ARRAY && this.depth === this.elementDepth && this.afterComma) {
      throw this.malformed(`unexpected "]" after a comma`, '', i);
    }
    this.depth--;
    if (this.element && this.depth === this.elementDepth) {
      const element = this.element;
      this.element = undefined;
      this.needComma = true;
      const bytes = this.take(element, i + 1);
      if (this.takesElements(i)) {
        this.itemIndex++;
        this.elementBatch.push({ bytes, line: element.line, column: element.column });
      } else if (!this.record(bytes, element)) {
        return false;
      }
    } else if (this.candidate && this.depth === 2 && this.candidate.open) {
      this.candidate.elements.push({ ...this.candidate.open, end: this.heldOffset(i + 1) });
      this.candidate.open = undefined;
      this.candidate.needComma = true;
    } else if (this.candidate && this.depth === 1) {
      this.candidate = undefined;
    }
    if (this.streamingList && this.depth === 1 && this.elementDepth === 2) {
      this.elementDepth = -1;
      this.listClosed = true;
    }
    if (this.depth === 0) return this.topEnd(i + 1);
    return true;
  }

  // --- captures ------------------------------------------------------------------------------

  private saveChunkEnd(chunk: Buffer): void {
    const top = this.top;
    if (top && !this.streamingList && top.bytes + chunk.length - top.from > HOLD_BYTES) {
      this.commit(chunk.length, true);
    }
    for (const capture of [this.top, this.element, this.key]) {
      if (!capture) continue;
      if (capture.from < chunk.length) {
        capture.pieces.push(chunk.subarray(capture.from));
        capture.bytes += chunk.length - capture.from;
      }
      capture.from = 0;
      this.checkSize(capture, capture.bytes);
    }
  }

  private checkSize(capture: Capture, bytes: number): void {
    if (bytes > this.options.limits.maxRecordBytes) {
      throw recordTooLarge(`${this.file}:${capture.line}:${capture.column}`, this.options.limits);
    }
  }

  /** The bytes of `capture` up to index `end` of the current chunk. */
  private take(capture: Capture, end: number): Buffer {
    const tail = this.chunk.subarray(capture.from, end);
    this.checkSize(capture, capture.bytes + tail.length);
    return capture.pieces.length === 0 ? tail : Buffer.concat([...capture.pieces, tail]);
  }

  /** Offset of chunk index `i` from the held top-level object's first byte. */
  private heldOffset(i: number): number {
    const top = this.top!;
    return top.bytes + (i - top.from);
  }

  private topStart(c: number, i: number): void {
    const origin = { line: this.line, column: this.column(i) };
    if (c === OPEN_ARRAY) {
      if (this.later !== 'first') {
        throw new CliError(
          `${this.where(i)}: a line holds an array, not a JSON object`,
          EXIT.input,
        );
      }
      this.topIsArray = true;
      this.elementDepth = 1;
      this.itemIndex = 0;
      this.needComma = false;
      this.afterComma = false;
      this.top = undefined;
      return;
    }
    this.topIsArray = false;
    this.top = { pieces: [], bytes: 0, from: i, ...origin };
    this.onlyMetadataKeys = true;
    this.metadataBeforeCurrent = true;
    this.needComma = false;
    this.candidate = undefined;
    this.streamingList = false;
    this.listClosed = false;
    this.itemIndex = 0;
  }

  /** An array opens in a held top-level object: is it the records' array of a list response? */
  private arrayInTopObject(i: number): void {
    if (!this.top || this.later === 'records') return;
    const key = this.currentKey;
    const wanted = this.options.itemsKey;
    // Compute's `items`; an AIP response's plural field, after nothing but list metadata.
    const isRecords =
      wanted !== undefined ? key === wanted : key === 'items' || this.metadataBeforeCurrent;
    if (!isRecords) return;
    this.candidate = { key, elements: [], open: undefined, valid: true, needComma: false };
    if (wanted !== undefined || this.top.bytes > HOLD_BYTES) this.commit(i + 1, false);
  }

  /**
   * Past HOLD_BYTES (or at once for --items), inside the candidate array: from now on the object
   * is a list response, its records streamed. The elements held so far go to the sink.
   */
  private commit(end: number, onlyIfInside: boolean): void {
    const candidate = this.candidate;
    if (!candidate?.valid || (onlyIfInside && this.depth < 2)) return;
    const top = this.top!;
    const held = Buffer.concat([...top.pieces, this.chunk.subarray(top.from, end)]);
    this.top = undefined;
    this.candidate = undefined;
    this.streamingList = true;
    this.elementDepth = 2;
    this.later = this.later === 'first' ? 'lists' : this.later;
    for (const span of candidate.elements) {
      if (!this.record(held.subarray(span.start, span.end), span)) {
        this.stopped = true;
        return;
      }
    }
    this.needComma = candidate.needComma;
    if (candidate.open) {
      this.element = {
        pieces: [held.subarray(candidate.open.start)],
        bytes: held.length - candidate.open.start,
        from: end,
        line: candidate.open.line,
        column: candidate.open.column,
      };
    }
  }

  /** A top-level value ended at index `end`. */
  private topEnd(end: number): boolean {
    this.expectKey = false;
    if (this.topIsArray) {
      this.elementDepth = -1;
      this.mode = 'trailing';
      return true;
    }
    if (this.streamingList) {
      this.streamingList = false;
      this.listClosed = false;
      return !this.stopped;
    }
    const top = this.top!;
    this.top = undefined;
    this.candidate = undefined;
    const bytes = this.take(top, end);
    const origin = { line: top.line, column: top.column };
    if (this.later === 'records') return this.record(bytes, origin);
    const value = this.parse(bytes, origin);
    const records = this.options.recordsOf(value, `${this.file}:${top.line}:${top.column}`);
    const isRecord = records.length === 1 && records[0] === value;
    if (this.later === 'first') {
      this.later = isRecord ? 'records' : 'lists';
      this.linesAfterNewline = isRecord;
    }
    for (const [index, record] of records.entries()) {
      if (record === null || typeof record !== 'object' || Array.isArray(record)) {
        throw new CliError(
          `${this.file}:${top.line}:${top.column}: item ${index} is ${JSON.stringify(record)}, not a JSON object`,
          EXIT.input,
        );
      }
      if (!this.sink(record, { file: this.file, ...origin })) return false;
    }
    return true;
  }

  /** Parses one record's bytes and hands it on. */
  private record(bytes: Buffer, origin: { line: number; column: number }): boolean {
    const read = readJsonElement(bytes, this.file, origin);
    this.itemIndex++;
    if (read.kind === 'problem') throw new CliError(read.message, EXIT.input);
    return this.sink(read.record, { file: this.file, line: origin.line, column: origin.column });
  }

  /**
   * Whether the elements of a top-level array go out in batches from here on (once true, true
   * for the rest of the array). A list response's records, read as a stream, stay here: its
   * records held before the stream began are read here too, and must come first.
   */
  private takesElements(i: number): boolean {
    if (this.batchingElements) return true;
    if (this.elementDepth !== 1 || !this.options.lineBatches?.takes(this.base + i)) return false;
    this.batchingElements = true;
    return true;
  }

  /** Sends the elements this chunk ended as one batch. */
  private submitElements(): void {
    const elements = this.elementBatch;
    this.elementBatch = [];
    const spans: number[] = [];
    let offset = 0;
    for (const { bytes, line, column } of elements) {
      spans.push(offset, offset + bytes.length, line, column);
      offset += bytes.length;
    }
    const first = elements[0]!.line;
    this.options.lineBatches!.submit({
      bytes: Buffer.concat(elements.map((e) => e.bytes)),
      file: this.file,
      line: first,
      lines: elements[elements.length - 1]!.line - first + 1,
      spans,
    });
  }

  private parse(bytes: Buffer, origin: { line: number; column: number }): unknown {
    const text = bytes.toString('utf8');
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new CliError(located(this.file, text, origin, error as Error), EXIT.input);
    }
  }

  // --- NDJSON lines -------------------------------------------------------------------------------

  private lines(chunk: Buffer, start: number): number {
    if (!this.batching && this.options.lineBatches?.takes(this.base + start)) this.batching = true;
    if (this.batching) return this.batchLines(chunk, start);
    let i = start;
    while (i < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, i);
      if (newline < 0) return this.holdPartialLine(chunk, i);
      const text =
        this.pendingBytes > 0
          ? Buffer.concat([...this.pending, chunk.subarray(i, newline)])
          : chunk.subarray(i, newline);
      this.pending = [];
      this.pendingBytes = 0;
      const more = this.ndjsonLine(text, this.line);
      this.newline(newline);
      i = newline + 1;
      if (!more) return -1;
    }
    return i;
  }

  /** Keeps the start of a line the chunk ends in (within the bound); returns the chunk's end. */
  private holdPartialLine(chunk: Buffer, i: number): number {
    if (this.pendingBytes > 0 || !isBlank(chunk, i, chunk.length)) {
      this.pending.push(chunk.subarray(i));
      this.pendingBytes += chunk.length - i;
      if (this.pendingBytes > this.options.limits.maxRecordBytes) {
        throw recordTooLarge(`${this.file}:${this.line}:1`, this.options.limits);
      }
    }
    return chunk.length;
  }

  /**
   * Sends the chunk's whole lines (with the start of the first, held from earlier chunks) as one
   * batch; keeps the line the chunk ends in. Only line breaks are looked for here.
   */
  private batchLines(chunk: Buffer, start: number): number {
    const last = chunk.lastIndexOf(NEWLINE);
    if (last < start) return this.holdPartialLine(chunk, start);
    const whole = chunk.subarray(start, last + 1);
    const bytes = this.pendingBytes > 0 ? Buffer.concat([...this.pending, whole]) : whole;
    this.pending = [];
    this.pendingBytes = 0;
    let lines = 0;
    for (let k = whole.indexOf(NEWLINE); k >= 0; k = whole.indexOf(NEWLINE, k + 1)) lines++;
    const line = this.line;
    this.line += lines - 1;
    this.newline(last);
    this.options.lineBatches!.submit({ bytes, file: this.file, line, lines });
    return this.holdPartialLine(chunk, last + 1);
  }

  /** One NDJSON line: a record, or a located error (reported and skipped with --keep-going). */
  private ndjsonLine(bytes: Buffer, line: number): boolean {
    const read = readNdjsonLine(bytes, this.file, line, this.options.limits);
    if (read.kind === 'blank') return true;
    if (read.kind === 'problem') {
      lineProblem(read.message, this.options.keepGoing, this.options.onBadLine);
      return true;
    }
    return this.sink(read.record, { file: this.file, line, column: 1 });
  }
}
