// The page's one state object and its change notices. Panels render from `store.state` (what the
// link holds) and `store.view` (what is derived from it: schema, resources, evaluation) and send
// changes through the actions in actions.ts; each panel subscribes to the topics it shows.
import type { Collection, FilterClause, ResourceSchema } from '@listkit/query';
import type { Dataset, Resource } from './datasets/dataset.js';
import { DEFAULT_DATASET } from './datasets/index.js';
import type { Evaluation } from './engine.js';
import type { ExpectationResult } from './expectations.js';
import type { HistoryEntry } from './history.js';
import { type FieldDoc, fieldDocs } from './schema-docs.js';
import { defaults, type PlaygroundState } from './url-state.js';

/** What the page derives from the state. */
export interface View {
  dataset: Dataset;
  schema: ResourceSchema;
  /** How the schema was made, in words. */
  schemaOrigin: string;
  /** A schema problem (the page then keeps the last good schema). */
  schemaError?: string;
  schemaWarnings: string[];
  fields: FieldDoc[];
  resources: Resource[];
  collection?: Collection<Resource>;
  evaluation?: Evaluation;
  explanation?: FilterClause;
  expectationResults: ExpectationResult[];
  history: HistoryEntry[];
  /** The key of the first row of the results, which the Why panel traces unless one is chosen. */
  firstRow?: string;
  /** The key the Why panel traces, chosen by the person; undefined: the first row. */
  whyKey?: string;
}

/**
 * What changed: `data` (resources or schema), `evaluation` (the filter ran), `query` (orderBy or
 * page size), `expectations`, `history`, `why` (the traced resource), `sql-dialect` (the SQL
 * panel's dialect), `filter-replaced` (the filter text was set from outside the editor: a link,
 * an example, the history).
 */
export type Topic =
  | 'data'
  | 'evaluation'
  | 'query'
  | 'expectations'
  | 'history'
  | 'why'
  | 'sql-dialect'
  | 'filter-replaced';

export class Store {
  readonly state: PlaygroundState = defaults();
  readonly view: View = {
    dataset: DEFAULT_DATASET,
    schema: DEFAULT_DATASET.schema,
    schemaOrigin: `the ${DEFAULT_DATASET.plural} schema`,
    schemaWarnings: [],
    fields: fieldDocs(DEFAULT_DATASET.schema),
    resources: [],
    expectationResults: [],
    history: [],
  };
  private readonly listeners = new Map<Topic, Array<() => void>>();

  on(topics: Topic | Topic[], listener: () => void): void {
    for (const topic of Array.isArray(topics) ? topics : [topics]) {
      const list = this.listeners.get(topic) ?? [];
      list.push(listener);
      this.listeners.set(topic, list);
    }
  }

  emit(topic: Topic): void {
    for (const listener of this.listeners.get(topic) ?? []) listener();
  }

  /** The resource's key as text (the schema's key field). */
  keyOf(resource: Resource): string {
    let value: unknown = resource;
    for (const step of this.view.schema.key.split('.'))
      value = (value as Record<string, unknown> | undefined)?.[step];
    return String(value);
  }

  /** "300 books", "1 forwarding rule", "40 resources" for data a person brought. */
  count(n: number): string {
    const custom = this.state.inferred || this.state.schemaText !== undefined;
    const [one, many] = custom
      ? ['resource', 'resources']
      : [this.view.dataset.singular, this.view.dataset.plural];
    return `${n} ${n === 1 ? one : many}`;
  }
}
