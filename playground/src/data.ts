// The sample data: generated forwarding rules (the emulator's own generator), or JSON a person
// pasted or edited. Validation reports where the JSON is broken, as line:column.
import { sampleForwardingRules } from '@listkit/service/schema';
import type { Resource } from './engine.js';

export function generatedRules(count: number): Resource[] {
  return sampleForwardingRules(count) as Resource[];
}

/**
 * Above this many rules the data text has one rule per line instead of indented JSON. A textarea
 * holds one DOM text node and one <br> per line (Chromium): 5,000 indented rules are 150,000
 * lines, 340,000 layout objects, and every relayout and repaint of the page then took 50-250 ms.
 * One rule per line is 5,000 lines.
 */
const INDENTED_RULES_MAX = 100;

/** The data as the editor shows it: indented JSON, or one rule per line when there are many. */
export function formatData(resources: readonly Resource[]): string {
  if (resources.length <= INDENTED_RULES_MAX) return JSON.stringify(resources, null, 2);
  return `[\n${resources.map((r) => `  ${JSON.stringify(r)}`).join(',\n')}\n]`;
}

export type DataResult = { ok: true; resources: Resource[] } | { ok: false; message: string };

/** Parses and checks edited data: a JSON array of objects, each with a string `name`. */
export function parseData(text: string): DataResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: jsonErrorMessage(text, error as Error) };
  }
  if (!Array.isArray(value)) {
    return {
      ok: false,
      message: 'The data must be a JSON array of forwarding rules: [ {…}, {…} ].',
    };
  }
  const seen = new Set<string>();
  for (let i = 0; i < value.length; i++) {
    const item = value[i] as unknown;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      return { ok: false, message: `Item ${i} is not an object.` };
    }
    const name = (item as { name?: unknown }).name;
    if (typeof name !== 'string' || name === '') {
      return {
        ok: false,
        message: `Item ${i} has no "name": every rule needs one (it is the key).`,
      };
    }
    if (seen.has(name))
      return {
        ok: false,
        message: `Two items are named ${JSON.stringify(name)}: names are unique keys.`,
      };
    seen.add(name);
  }
  return { ok: true, resources: value as Resource[] };
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
