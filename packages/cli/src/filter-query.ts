// The query of one `listkit filter` run, compiled against a schema: the filter, --order-by,
// --fields and the page, or for --print-schema, --explain and --sql the text to print. The main
// thread and every worker thread (filter-worker.ts) compile it from the same options and schema.
import {
  type CompiledFilter,
  checkedFieldsOf,
  compileFieldMask,
  compileFilter,
  explainFilter,
  type FieldMask,
  type FieldRef,
  formatExplanation,
  ListkitError,
  type OrderBy,
  parseOrderBy,
  type SortKey,
} from '@listkit/query';
import { CliError, EXIT } from './cli-error.js';
import type { FilterOptions } from './filter-command.js';
import { type Cursor, inputOrderPage, orderedPage, type PageSelection } from './page-selection.js';
import { POSITION_KEY, type SchemaChoice } from './schema-choice.js';

let sqlPlanner: typeof import('@listkit/query/sql') | undefined;

/** Loads the SQL planner, which only --sql needs (the other runs start without it). */
export async function loadSqlPlanner(): Promise<void> {
  sqlPlanner ??= await import('@listkit/query/sql');
}

export interface Query {
  filter: CompiledFilter<object>;
  order: OrderBy<object> | undefined;
  selection: PageSelection;
  /** `--fields`, checked against the schema; undefined: every field. */
  mask?: FieldMask;
}

/**
 * The fields an order sorts by (the key ends every order), as the schema guard reads them; not
 * the input position that keys data without a name or id (listkit sets it after the guard).
 */
export function orderFieldsOf(order: OrderBy<object> | undefined): FieldRef[] {
  const terms = (order?.keyTerms ?? []).filter((term) => term.path !== POSITION_KEY);
  return terms.map((term) => ({
    path: term.path,
    steps: term.path.split('.').map((name) => ({ kind: 'field' as const, name })),
    type: term.type,
    span: term.span,
  }));
}

/**
 * Checks the filter and orderBy against the schema and sets up the page; or, for --print-schema,
 * --explain and --sql, returns the text to print instead.
 */
export function prepare(
  filter: string,
  choice: SchemaChoice,
  options: FilterOptions,
  cursorKey: SortKey | undefined,
): Query | string {
  const { schema } = choice;
  if (options.printSchema) return `${JSON.stringify(schema, null, 2)}\n`;
  const compiled = listkitCall(() => compileFilter<object>(filter, schema));
  // The emulator's and the list method's reader: a misspelt path is refused (it would print {}
  // for every record), with a caret and a did-you-mean.
  const mask = options.fields
    ? listkitCall(() => compileFieldMask(options.fields!, schema), '--fields: ')
    : undefined;
  const order = options.orderBy
    ? listkitCall(() => parseOrderBy<object>(options.orderBy!, schema))
    : undefined;
  if (options.explain) return `${formatExplanation(explainFilter(compiled.checked, filter))}\n`;
  if (options.sql) {
    const { planListQuery, sqlTable } = sqlPlanner!;
    const table = sqlTable(schema, { table: 'resources', dialect: options.sqlDialect });
    const plan = planListQuery(table, {
      filter: compiled,
      order: order ?? parseOrderBy<object>('', schema),
      pageSize: options.pageSize ?? 50,
    });
    return [
      plan.text,
      `-- parameters: ${JSON.stringify(plan.params)}`,
      ...(plan.exact
        ? []
        : ['-- returned rows are checked again by the filter in the process (residual)']),
      ...plan.inexact.map((c) => `-- ${c.path}: ${c.reason}`),
      '',
    ].join('\n');
  }
  const cursor = cursorKey && cursorOf(cursorKey, order);
  const selection = order
    ? orderedPage(order, options.pageSize, cursor)
    : inputOrderPage(options.pageSize, cursor);
  return { filter: compiled, order, selection, ...(mask && !mask.selectsAll ? { mask } : {}) };
}

function cursorOf(key: SortKey, order: OrderBy<object> | undefined): Cursor {
  const position = key[key.length - 1];
  const expected = (order?.keyTerms.length ?? 0) + 1;
  if (
    key.length !== expected ||
    typeof position !== 'number' ||
    !Number.isInteger(position) ||
    position < 0
  ) {
    throw new CliError('--page-token: the token does not belong to this listing', EXIT.usage);
  }
  return { key: key.slice(0, -1), position };
}

/** Runs a parse or check, turning a ListkitError into the caret message and exit status 2. */
export function listkitCall<T>(work: () => T, prefix = ''): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof ListkitError) {
      // The caret lines are indented as far as the prefix, so they still point at the source.
      const text = error
        .format()
        .split('\n')
        .join(`\n${' '.repeat(prefix.length)}`);
      throw new CliError(`${prefix}${text}`, EXIT.usage);
    }
    throw error;
  }
}

/** The record with only what `--fields` selects (all of it without). */
export function project(record: object, mask: FieldMask | undefined): object {
  return mask ? (mask.apply(record) as object) : record;
}

/**
 * The fields the schema guard checks in each record of an inferred schema: those the filter
 * reads and those --order-by sorts by.
 *
 * @example
 * ```ts
 * const refs = guardedFields(query); // [{ path: 'size', … }]
 * ```
 */
export function guardedFields(query: Query): FieldRef[] {
  return [...checkedFieldsOf(query.filter.checked), ...orderFieldsOf(query.order)];
}
