// Expectations: "this filter matches exactly these keys", kept in the link and run on every
// change of data, schema or tests, like regex101's unit tests. Exported and imported as JSON.
import { compileFilter, ListkitError, type ResourceSchema } from '@listkit/query';
import { readPath } from './data.js';
import type { Resource } from './datasets/dataset.js';

export interface Expectation {
  filter: string;
  /** The keys the filter matches, all of them (order does not matter). */
  keys: string[];
}

export type ExpectationResult =
  | { status: 'pass'; matched: number }
  | { status: 'fail'; missing: string[]; unexpected: string[] }
  | { status: 'error'; message: string };

/** Bounds on what a link or an imported file may hold. */
export const MAX_EXPECTATIONS = 50;
export const MAX_EXPECTED_KEYS = 200;
export const MAX_EXPECTATION_FILTER_CHARS = 2000;

/** Runs one expectation over the resources. Never throws. */
export function runExpectation(
  expectation: Expectation,
  schema: ResourceSchema,
  resources: readonly Resource[],
): ExpectationResult {
  let matchedKeys: Set<string>;
  try {
    const compiled = compileFilter(expectation.filter, schema);
    matchedKeys = new Set(
      resources.filter((r) => compiled.matches(r)).map((r) => String(readPath(r, schema.key))),
    );
  } catch (error) {
    const message = error instanceof ListkitError ? error.message : String(error);
    return { status: 'error', message };
  }
  const wanted = new Set(expectation.keys);
  const missing = [...wanted].filter((k) => !matchedKeys.has(k));
  const unexpected = [...matchedKeys].filter((k) => !wanted.has(k));
  if (missing.length === 0 && unexpected.length === 0)
    return { status: 'pass', matched: matchedKeys.size };
  return { status: 'fail', missing, unexpected };
}

/**
 * Reads expectations from JSON (a link or an imported file): an array of `{filter, keys}`, or
 * `{ "expectations": [...] }` as exported. Throws an Error whose message says what is wrong.
 */
export function parseExpectations(value: unknown): Expectation[] {
  const list =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as { expectations?: unknown }).expectations
      : value;
  if (!Array.isArray(list)) throw new Error('expected an array of {"filter": "…", "keys": ["…"]}');
  if (list.length > MAX_EXPECTATIONS)
    throw new Error(`${list.length} expectations; at most ${MAX_EXPECTATIONS} are kept`);
  return list.map((item: unknown, i) => {
    const { filter, keys } = (item ?? {}) as { filter?: unknown; keys?: unknown };
    if (typeof filter !== 'string' || filter.length > MAX_EXPECTATION_FILTER_CHARS)
      throw new Error(
        `expectation ${i} needs a "filter" string of at most ${MAX_EXPECTATION_FILTER_CHARS} characters`,
      );
    if (!Array.isArray(keys) || keys.length > MAX_EXPECTED_KEYS)
      throw new Error(`expectation ${i} needs "keys": an array of at most ${MAX_EXPECTED_KEYS}`);
    return { filter, keys: keys.map((k) => String(k)) };
  });
}

/** The JSON a person downloads: readable, and what {@link parseExpectations} reads back. */
export function exportExpectations(expectations: readonly Expectation[]): string {
  return `${JSON.stringify({ expectations }, null, 2)}\n`;
}
