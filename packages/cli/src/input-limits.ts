// What a reader of untrusted JSON may hold at once, and the error it ends with past a bound. One
// place for the figures, so `listkit filter` (and `listkit conform`, which may reuse them for
// response bodies) state the same caps in their messages and in --help.
import { CliError, EXIT } from './cli-error.js';
import { formatBytes } from './read-capped.js';

/**
 * The bounds of one reader. Every byte a reader holds is part of one record (or line) it is
 * assembling, so `maxRecordBytes` bounds its memory whatever the input's size; `maxDepth` bounds
 * the nesting checked before any recursive code sees a value.
 *
 * @example
 * ```ts
 * const limits: InputLimits = { maxRecordBytes: 64 * MIB, maxDepth: 512 };
 * ```
 */
export interface InputLimits {
  /** The longest record, NDJSON line, or run of whitespace a reader holds, in bytes. */
  maxRecordBytes: number;
  /** The deepest nesting of arrays and objects accepted. */
  maxDepth: number;
}

export const MIB = 1024 * 1024;

/** The defaults: far above any real API resource, far below what would exhaust a 512 MB process. */
export const DEFAULT_LIMITS: InputLimits = { maxRecordBytes: 64 * MIB, maxDepth: 512 };

/**
 * The default of `listkit conform --max-depth`, the deepest nesting a list response may have:
 * protobuf's default recursion limit, which no Google API response reaches.
 */
export const DEFAULT_RESPONSE_DEPTH = 100;

/** The most `--max-depth` may raise the nesting bound to (deeper values overflow the stack). */
export const MAX_DEPTH_CEILING = 1000;

/**
 * The error of a record past `maxRecordBytes`, located at the record's start.
 *
 * @example
 * ```ts
 * throw recordTooLarge('big.json:1:2', DEFAULT_LIMITS); // exit 1, names --max-record-bytes
 * ```
 */
export function recordTooLarge(where: string, limits: InputLimits): CliError {
  return new CliError(
    `${where}: a record (or line) longer than ${formatBytes(limits.maxRecordBytes)}; raise the bound with --max-record-bytes`,
    EXIT.input,
  );
}

/**
 * The error of nesting past `maxDepth`, located at the bracket that went too deep.
 *
 * @example
 * ```ts
 * throw nestedTooDeep('deep.json:1:513', DEFAULT_LIMITS); // exit 1, names --max-depth
 * ```
 */
export function nestedTooDeep(where: string, limits: InputLimits): CliError {
  return new CliError(
    `${where}: nested too deep (more than ${limits.maxDepth} levels of arrays and objects); raise the bound with --max-depth`,
    EXIT.input,
  );
}
