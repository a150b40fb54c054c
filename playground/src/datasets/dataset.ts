// An example dataset: a resource schema, a generator of sample resources, the examples the menu
// offers for it, and how its list call is written. Compute's forwarding rules are one of them;
// the page works the same on any other, and on data a person brings.
import type { ResourceSchema } from '@listkit/query';
import type { Example } from '../examples.js';

export type Resource = Record<string, unknown>;

export interface ListCallStyle {
  /** Where the REST call goes, without a trailing slash. */
  origin: string;
  /** The collection's path, such as `/v1/publishers/acme/books`. */
  path: string;
  /** The page-size parameter: Compute's `maxResults`, AIP-158's `pageSize`. */
  pageSizeParam: 'maxResults' | 'pageSize';
}

export interface Dataset {
  id: string;
  /** In the dataset menu. */
  title: string;
  /** One resource and many, for counts: "300 books". */
  singular: string;
  plural: string;
  schema: ResourceSchema;
  /** Deterministic sample resources. */
  generate(count: number): Resource[];
  /** How many the page generates unless told otherwise. */
  defaultSample: number;
  /** What a first visit shows with this dataset. */
  firstFilter: string;
  /** Columns of the results table when the filter names none. */
  columns: readonly string[];
  examples: readonly Example[];
  listCall: ListCallStyle;
  /** Only Compute's forwarding rules can be compared with the emulator and written as gcloud. */
  compute: boolean;
}

export const pick = <T>(random: () => number, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)] as T;

/** An RFC 3339 time `days` (fractional) after 2024-01-01T00:00:00Z, to the second. */
export function timeAfter(days: number): string {
  const ms = Date.UTC(2024, 0, 1) + Math.round(days * 86_400) * 1000;
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}
