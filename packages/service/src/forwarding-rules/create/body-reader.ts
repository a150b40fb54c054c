import type { ComputeUrls } from '../../names/compute-urls.js';
import type { ForwardingRuleJson } from '../forwarding-rule.js';
import { invalid } from './errors.js';

/**
 * Where a rule is written: what the clash rule needs to name rules and find their domains.
 *
 * @example
 * ```ts
 * const where: ClashContext = { project: 'my-project', region: 'us-east1', urls: new ComputeUrls() };
 * ```
 */
export interface ClashContext {
  project: string;
  /** The rule's region; absent for a global rule. */
  region?: string;
  urls: ComputeUrls;
}

/** What create validation needs to know besides the body. */
export interface InsertContext extends ClashContext {
  /**
   * The region's stored rules at the rule's address (canonical form, see `clashAddressOf`), for
   * the clash rule (the last stage): the only rules it reads. Absent: the caller runs the clash
   * rule itself where the region's writes are serialised (a store's `ScopeCheck`).
   */
  sameAddress?: readonly ForwardingRuleJson[];
}

/** A shaped insert body with the reads every stage makes of it. */
export interface BodyReader {
  readonly input: Readonly<Record<string, unknown>>;
  readonly ctx: InsertContext;
  /** A string field; an empty string is unset (proto3 JSON: clients send `"loadBalancingScheme": ""`). */
  str(field: string): string | undefined;
  /** A list field; an empty list is unset. */
  list<T>(field: string): T[] | undefined;
  /** Whether a boolean field is true. */
  flag(field: string): boolean;
  /** A string field that must be one of `values` (400 naming them otherwise). */
  enumValue(field: string, values: readonly string[]): string | undefined;
}

/** The reader of a body that passed the shape stage. */
export function bodyReader(input: Record<string, unknown>, ctx: InsertContext): BodyReader {
  const str = (field: string): string | undefined => {
    const value = input[field];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  return {
    input,
    ctx,
    str,
    list: <T>(field: string): T[] | undefined => {
      const value = input[field] as T[] | undefined;
      return value && value.length > 0 ? value : undefined;
    },
    flag: (field: string) => input[field] === true,
    enumValue: (field: string, values: readonly string[]) => {
      const value = str(field);
      if (value !== undefined && !values.includes(value)) {
        throw invalid(field, value, `Must be one of [${values.join(', ')}].`);
      }
      return value;
    },
  };
}
