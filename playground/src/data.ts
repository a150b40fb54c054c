// The data a person brings: a JSON array, a list response (`items`, or an AIP-132 plural such as
// `books`), or NDJSON; or a dataset's generated sample. Problems name where the text is broken,
// as line:column, and which record lacks or repeats its key.
import { sampleForwardingRules } from '@listkit/service/schema';
import type { Resource } from './datasets/dataset.js';

export function generatedRules(count: number): Resource[] {
  return sampleForwardingRules(count) as Resource[];
}

/** The most records the page takes (a link or a file): the page evaluates every one as you type. */
export const MAX_RECORDS = 20_000;

/**
 * Above this many records the data text has one record per line instead of indented JSON. A
 * textarea holds one DOM text node and one <br> per line (Chromium): 5,000 indented rules are
 * 150,000 lines, and every relayout of the page then took 50-250 ms. One per line is 5,000.
 */
const INDENTED_MAX = 100;

/** The data as the editor shows it: indented JSON, or one record per line when there are many. */
export function formatData(resources: readonly Resource[]): string {
  if (resources.length <= INDENTED_MAX) return JSON.stringify(resources, null, 2);
  return `[\n${resources.map((r) => `  ${JSON.stringify(r)}`).join(',\n')}\n]`;
}

export type DataShape = 'JSON array' | 'list response' | 'NDJSON';
export type DataResult =
  | { ok: true; resources: Resource[]; shape: DataShape; plural?: string }
  | { ok: false; message: string };

/** Parses data in any of the shapes `listkit filter` reads. Never throws. */
export function parseData(text: string): DataResult {
  const trimmed = text.trim();
  if (!trimmed) return { ok: true, resources: [], shape: 'JSON array' };
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (error) {
    // Not one JSON value: NDJSON when it has several lines that each start an object.
    if (trimmed.startsWith('{') && trimmed.includes('\n')) return parseNdjson(text);
    return { ok: false, message: jsonErrorMessage(text, error as Error) };
  }
  if (Array.isArray(value)) return records(value, 'JSON array');
  if (typeof value === 'object' && value !== null) {
    const list = listOf(value as Record<string, unknown>);
    if (list) return { ...records(list.items, 'list response'), ...{ plural: list.plural } };
    return records([value], 'NDJSON');
  }
  return {
    ok: false,
    message:
      'The data must be a JSON array of objects, a list response ({"items": […]} or {"books": […]}), or NDJSON (one object a line).',
  };
}

/** `{ items: […] }` or `{ books: [...], nextPageToken }`: the one array of objects it holds. */
function listOf(value: Record<string, unknown>): { items: unknown[]; plural: string } | undefined {
  if (Array.isArray(value.items)) return { items: value.items, plural: 'items' };
  const arrays = Object.entries(value).filter(
    ([, v]) => Array.isArray(v) && v.every((e) => typeof e === 'object' && e !== null),
  );
  const [only] = arrays;
  if (arrays.length === 1 && only) return { items: only[1] as unknown[], plural: only[0] };
  return undefined;
}

function parseNdjson(text: string): DataResult {
  const out: unknown[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    try {
      out.push(JSON.parse(line));
    } catch (error) {
      const message = jsonErrorMessage(line, error as Error).replace(/^Invalid JSON \(1:/, '(');
      return { ok: false, message: `Invalid NDJSON on line ${i + 1}: ${message}` };
    }
  }
  return records(out, 'NDJSON');
}

function records(items: unknown[], shape: DataShape): DataResult {
  if (items.length > MAX_RECORDS)
    return {
      ok: false,
      message: `The data has ${items.length} records; the page takes at most ${MAX_RECORDS}. Filter a larger file with \`listkit filter\`.`,
    };
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      return { ok: false, message: `Record ${i} is not an object.` };
  }
  return { ok: true, resources: items as Resource[], shape };
}

/** Every record has the key, and no two share it; else what is wrong, in words. */
export function checkKeys(resources: readonly Resource[], key: string): string | undefined {
  const seen = new Set<string>();
  for (let i = 0; i < resources.length; i++) {
    const value = readPath(resources[i]!, key);
    if (value === undefined || value === null || value === '')
      return `Record ${i} has no "${key}": every record needs one (it is the key).`;
    const text = String(value);
    if (seen.has(text))
      return `Two records have ${key} ${JSON.stringify(value)}: the key must be unique.`;
    seen.add(text);
  }
  return undefined;
}

/** The value at a dotted path of plain objects. */
export function readPath(resource: Resource, path: string): unknown {
  let value: unknown = resource;
  for (const step of path.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return value;
}

/** JSON.parse's message with the line and column of its position, and that line with a caret. */
function jsonErrorMessage(text: string, error: Error): string {
  const match = /position (\d+)/.exec(error.message);
  if (!match) return `Invalid JSON: ${error.message}`;
  const offset = Number(match[1]);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const lineEnd = text.indexOf('\n', offset);
  const lineText = text.slice(lineStart, lineEnd === -1 ? undefined : lineEnd);
  const column = offset - lineStart + 1;
  const message = error.message
    .replace(/ in JSON at position \d+.*$/, '')
    .replace(/\s*\(line \d+ column \d+\)$/, '');
  return `Invalid JSON (${line}:${column}): ${message}\n${lineText}\n${' '.repeat(column - 1)}^`;
}
