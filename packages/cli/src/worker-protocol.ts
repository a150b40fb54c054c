// What the main thread and the worker threads of `listkit filter` say to each other
// (decision 96): the main thread finds where NDJSON lines end and sends batches of whole lines;
// a worker reads, checks and filters them with the schema the main thread chose, and answers
// with what the main thread then writes, in input order.
import type { ResourceSchema } from '@listkit/query';
import type { FilterOptions } from './filter-command.js';

/** `workerData` of a filter worker: set once, when the thread starts. */
export interface WorkerSetup {
  filter: string;
  options: FilterOptions;
  /** The schema of generation 0 (a later one comes as a {@link SchemaUpdate}). */
  schema: ResourceSchema;
  /** Check each record against the schema (`--schema`), instead of guarding an inferred one. */
  given: boolean;
  /**
   * What a worker answers with for its matches: their JSON lines as printed (`text`), their count
   * only (`count`), or the whole records, which the main thread offers to a page (`records`).
   */
  answer: 'text' | 'count' | 'records';
}

/** The schema widened (a later record held a value its inferred type could not read). */
export interface SchemaUpdate {
  kind: 'schema';
  generation: number;
  schema: ResourceSchema;
}

/**
 * Whole NDJSON lines, the first being line `line` of `file` (the last may lack its break); or
 * the elements of a JSON array at `spans` (four numbers each: start, end, line, column).
 */
export interface BatchRequest {
  kind: 'batch';
  id: number;
  file: string;
  line: number;
  bytes: Uint8Array;
  spans?: number[];
}

/** A worker's answer for one batch. */
export interface BatchResult {
  id: number;
  /** The schema generation the batch was read with: an older one is read again, by the main thread. */
  generation: number;
  /** Records that reached the filter (they take input positions). */
  records: number;
  /** Matches. */
  count: number;
  /** `text`: the matches as printed, one JSON line each, each ending with a line break. */
  text: string;
  /** `records`: each match's position among the batch's records, and its JSON. */
  matches: [number, string][];
  /**
   * Reports for stderr in input order: a malformed line skipped by --keep-going (`line`), and the
   * batch's first record skipped for a value its inferred type cannot read (`skip`).
   */
  reports: ['line' | 'skip', string][];
  /** Records skipped for a value their inferred type cannot read (--keep-going). */
  skipped: number;
  /**
   * The worker stopped before this line (its byte offset in the batch; for elements, the
   * element's index): the main thread reads the rest of the batch itself (a type to widen, or an
   * error to report where it happens).
   */
  stop?: { offset: number; line: number };
  /** The batch's bytes, moved back to the main thread (which sends its next batch in them). */
  bytes: Uint8Array;
}

export type WorkerMessage = SchemaUpdate | BatchRequest;
