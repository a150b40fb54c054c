// Runs a filter over the sample data with @listkit/query, timing the two phases the way a server
// pays for them: parse + check + compile once per request, then one predicate call per resource.
import {
  type CompiledFilter,
  compileFilter,
  detectFilterStyle,
  type FilterAst,
  type FilterStyle,
  ListkitError,
  parseFilter,
  type ResourceSchema,
} from '@listkit/query';
import type { Resource } from './datasets/dataset.js';

export type { Resource } from './datasets/dataset.js';

export interface Evaluation {
  source: string;
  /** Detected from the text even when it does not parse. */
  style: FilterStyle;
  /** The tree, when the filter parses (it may still fail the schema check). */
  ast?: FilterAst;
  /** The compiled filter, when the filter is valid. */
  compiled?: CompiledFilter<Resource>;
  /** Why the filter is invalid: every problem, with spans. */
  error?: ListkitError;
  /** A failure that is not a ListkitError: a bug to report. */
  internalError?: Error;
  /** Parse, check and compile, in milliseconds. */
  compileMs: number;
  /** Evaluation over every resource, in milliseconds. */
  evalMs: number;
  /** One entry per resource, in data order; empty when the filter is invalid. */
  matches: boolean[];
  matchCount: number;
}

/** Parses, checks and compiles `source`, then tests every resource. Never throws. */
export function evaluate(
  source: string,
  resources: readonly Resource[],
  schema: ResourceSchema,
): Evaluation {
  const style = detectFilterStyle(source);
  const result: Evaluation = { source, style, compileMs: 0, evalMs: 0, matches: [], matchCount: 0 };
  const started = performance.now();
  try {
    result.ast = parseFilter(source);
    result.compiled = compileFilter<Resource>(result.ast, schema);
  } catch (error) {
    if (error instanceof ListkitError) result.error = error;
    else result.internalError = error instanceof Error ? error : new Error(String(error));
  }
  result.compileMs = performance.now() - started;
  const compiled = result.compiled;
  if (!compiled) return result;
  const evalStarted = performance.now();
  const matches = new Array<boolean>(resources.length);
  let count = 0;
  for (let i = 0; i < resources.length; i++) {
    const match = compiled.matches(resources[i]!);
    matches[i] = match;
    if (match) count++;
  }
  result.evalMs = performance.now() - evalStarted;
  result.matches = matches;
  result.matchCount = count;
  return result;
}

/** Human names of the filter styles. */
export const STYLE_NAMES: Record<FilterStyle, string> = {
  empty: 'empty (matches everything)',
  'aip-160': 'AIP-160',
  regex: 'regex style (RE2)',
};
