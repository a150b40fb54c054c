// `--output table`: one row a record, columns for the given fields (or every top-level scalar
// field of the first 100 records, in first-seen order), cells cut to a readable width. No
// records: no table (not a lone blank header line).
import { type MaskSelection, parseFieldMask } from '@listkit/query';

const MAX_CELL = 40;

export function renderTable(
  records: readonly object[],
  fields: readonly string[] | undefined,
): string {
  if (records.length === 0) return '';
  const columns = fields ?? defaultColumns(records);
  const cells = records.map((record) => columns.map((path) => cell(read(record, path))));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  const line = (row: readonly string[]) =>
    row
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return `${[line(columns), ...cells.map(line)].join('\n')}\n`;
}

function defaultColumns(records: readonly object[]): string[] {
  const columns: string[] = [];
  for (const record of records.slice(0, 100)) {
    for (const [name, value] of Object.entries(record)) {
      if (value !== null && typeof value === 'object') continue;
      if (!columns.includes(name)) columns.push(name);
    }
  }
  return columns;
}

function read(record: object, path: string): unknown {
  let value: unknown = record;
  for (const step of path.split('.')) {
    value =
      value !== null && typeof value === 'object'
        ? (value as Record<string, unknown>)[step]
        : undefined;
  }
  return value;
}

function cell(value: unknown): string {
  const text = value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > MAX_CELL ? `${flat.slice(0, MAX_CELL - 1)}…` : flat;
}

/**
 * The columns a `--fields` mask names, in the order written, as dotted paths: `name,labels(env)`
 * gives `name`, `labels.env`; a path stops at a `*` (`tags.*.x` is the column `tags`). Read by
 * the one field-mask reader; the mask was checked before.
 *
 * @example
 * maskColumns('name,labels(env,team)'); // ['name', 'labels.env', 'labels.team']
 */
export function maskColumns(text: string): string[] {
  const columns: string[] = [];
  const walk = (selections: readonly MaskSelection[], prefix: string[]) => {
    for (const { path, children } of selections) {
      const star = path.findIndex((s) => s.star);
      const steps = [...prefix, ...(star < 0 ? path : path.slice(0, star)).map((s) => s.name)];
      if (star < 0 && children?.length) walk(children, steps);
      else if (steps.length > 0 && !columns.includes(steps.join('.')))
        columns.push(steps.join('.'));
    }
  };
  walk(parseFieldMask(text), []);
  return columns;
}
