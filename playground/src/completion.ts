// Completion and hover docs for the filter editor, both read from the schema (schema-docs.ts)
// and, for map keys such as `labels.`, from the data: the keys the resources actually carry.
// Both filter styles: AIP-160 (`IPProtocol = TCP AND …`) and the regex style (`(name eq "…")`).
import {
  type Completion,
  type CompletionContext,
  type CompletionResult,
  insertCompletionText,
  pickedCompletion,
  startCompletion,
} from '@codemirror/autocomplete';
import type { EditorView, Tooltip } from '@codemirror/view';
import { detectFilterStyle, type FieldType } from '@listkit/query';
import { DATA_SCAN_LIMIT, valueCounts } from './data-values.js';
import type { Resource } from './engine.js';
import { type FieldDoc, fieldSummary, OPERATOR_DOCS } from './schema-docs.js';

export interface CompletionSources {
  /** The schema's fields now (the schema changes with the data). */
  fields(): readonly FieldDoc[];
  resources(): readonly Resource[];
}

/**
 * The boost that orders field names for what is typed. CodeMirror scores an exact name above a
 * name it begins (by 100), a prefix in the same case above one in another case, and a prefix
 * above a name that merely contains the text; between names it scores alike, it sorts by boost
 * and then alphabetically, which put the longer leaf `labelFingerprint` before the container
 * `labels` for `lab`. A boost below 100 that falls with length keeps those tiers and puts shorter
 * names first within each, so a container is never behind a longer leaf with its prefix.
 */
export function lengthBoost(label: string): number {
  return 99 - Math.min(label.length, 99);
}

const COMPARATOR = String.raw`([A-Za-z_][\w.]*)\s*(?:=|!=|<=|>=|<|>|:|\beq\b|\bne\b)\s*`;
const FIELD_BEFORE_COMPARATOR = new RegExp(`${COMPARATOR}$`);
/** `field = "Northern Eu`: a quoted value being typed (spaces and all), up to the cursor. */
const QUOTED_VALUE_AT_END = new RegExp(`${COMPARATOR}"([^"\\\\]*)$`);
const PATH_AT_END = /[A-Za-z_][\w.]*$/;
/** A value AIP-160 reads as one word; any other is written as a quoted string. */
const PLAIN_VALUE = /^[A-Za-z_][\w-]*$/;

function operatorsFor(type: FieldType): string[] {
  switch (type.kind) {
    case 'string':
      return ['=', '!=', ':'];
    case 'bool':
      return ['=', '!='];
    case 'map':
    case 'repeated':
      return [':'];
    case 'message':
      return [];
    default:
      return ['=', '!=', '<', '<=', '>', '>=', ':'];
  }
}

/** Map keys present in the data under a top-level map field. */
function mapKeys(resources: readonly Resource[], field: string): string[] {
  const keys = new Set<string>();
  for (const resource of resources.slice(0, DATA_SCAN_LIMIT)) {
    const map = resource[field];
    if (map && typeof map === 'object' && !Array.isArray(map))
      for (const key of Object.keys(map)) keys.add(key);
  }
  return [...keys].sort();
}

/** A string field, or a list of strings: its values are counted from the data. */
const holdsStrings = (type: FieldType | undefined): boolean =>
  type?.kind === 'string' ||
  (type?.kind === 'repeated' && type.element.kind === 'string') ||
  (type?.kind === 'map' && type.value.kind === 'string');

/** A value as the filter writes it: quoted unless one plain word (quotes kept as typed). */
function valueText(value: string, regexStyle: boolean, openQuote: boolean): string {
  const quoted = JSON.stringify(value);
  if (openQuote) return quoted.slice(1, -1);
  return regexStyle || !PLAIN_VALUE.test(value) || /^(AND|OR|NOT)$/.test(value) ? quoted : value;
}

/** Inserts `text` and opens the completions of what comes next (values after `=`, fields after AND). */
function thenComplete(text: string): Completion['apply'] {
  return (view, completion, from, to) => {
    view.dispatch({
      ...insertCompletionText(view.state, text, from, to),
      annotations: pickedCompletion.of(completion),
    });
    startCompletion(view);
  };
}

function keywordOptions(): Completion[] {
  return ['AND', 'OR', 'NOT'].map((k, i) => ({
    label: k,
    boost: 3 - i,
    type: 'keyword',
    detail: OPERATOR_DOCS[k]?.aip,
    apply: thenComplete(`${k} `),
  }));
}

function fieldOption(doc: FieldDoc): Completion {
  return {
    label: doc.path,
    type: 'variable',
    detail: doc.typeText,
    info: fieldSummary(doc),
    boost: lengthBoost(doc.path),
  };
}

/** The CodeMirror completion source for filters in either style. */
export function filterCompletions(sources: CompletionSources) {
  let indexed: readonly FieldDoc[] | undefined;
  let byPath = new Map<string, FieldDoc>();
  const mapField = (path: string) => {
    const top = byPath.get(path.split('.')[0]!);
    return top?.type.kind === 'map' ? top : undefined;
  };
  return (context: CompletionContext): CompletionResult | null => {
    const fields = sources.fields();
    if (fields !== indexed) {
      indexed = fields;
      byPath = new Map(fields.map((f) => [f.path, f]));
    }
    const before = context.state.sliceDoc(0, context.pos);
    const regexStyle = detectFilterStyle(context.state.doc.toString()) === 'regex';
    const word = PATH_AT_END.exec(before);
    const from = word ? context.pos - word[0].length : context.pos;
    const head = before.slice(0, from);

    // A value after a comparator: enum values, true/false, map keys from the data, or the values
    // a string field (or a map's key) holds in the data, the most frequent first, with counts.
    // Inside a quote typed by hand the value may hold spaces; the completion closes the quote.
    const quoted = QUOTED_VALUE_AT_END.exec(before);
    const afterComparator = quoted ?? FIELD_BEFORE_COMPARATOR.exec(head);
    if (afterComparator) {
      const path = afterComparator[1]!;
      const valueHead = quoted ? before.slice(0, before.length - quoted[2]!.length - 1) : head;
      const options = valueOptions(path, byPath.get(path), mapField(path), valueHead, sources);
      if (options.length === 0) return null;
      return {
        from: quoted ? context.pos - quoted[2]!.length : from,
        options: options.map((o) => {
          const label = valueText(o.label, regexStyle, quoted !== null);
          return { ...o, label, apply: quoted ? `${label}"` : undefined };
        }),
        validFor: quoted ? /^[^"\\]*$/ : /^[\w"-]*$/,
      };
    }

    // An operator after a complete field path and a space.
    const fieldBefore = /([A-Za-z_][\w.]*)\s+$/.exec(head);
    if (!word && fieldBefore) {
      const path = fieldBefore[1]!;
      const map = mapField(path);
      const type =
        byPath.get(path)?.type ??
        (map?.type.kind === 'map' && path.includes('.') ? map.type.value : undefined);
      if (type) {
        // `(field ` opening the filter may start either style: offer both until one is clear.
        const either = !regexStyle && /^\s*\(\s*[\w.]+\s+$/.test(head);
        const operators = regexStyle
          ? ['eq', 'ne']
          : either
            ? [...operatorsFor(type), 'eq', 'ne']
            : operatorsFor(type);
        return {
          from,
          // In the order given (most used first), not alphabetically.
          options: operators.map((op, i) => ({
            label: op,
            boost: operators.length - i,
            type: 'operator',
            detail: regexStyle ? OPERATOR_DOCS[op]?.regex : OPERATOR_DOCS[op]?.aip,
            apply: thenComplete(`${op} `),
          })),
        };
      }
      if (!regexStyle && !/\b(AND|OR|NOT)\s+$/.test(head))
        return { from, options: keywordOptions() };
    }

    if (!word && !context.explicit) return null;
    const typed = word?.[0] ?? '';
    const dot = typed.lastIndexOf('.');
    const options: Completion[] = [];
    if (dot >= 0) {
      // A nested path: message fields, or the keys a map holds in the data.
      const parent = typed.slice(0, dot);
      if (byPath.get(parent)?.type.kind === 'map') {
        for (const key of mapKeys(sources.resources(), parent))
          options.push({ label: `${parent}.${key}`, type: 'property', detail: 'key in the data' });
      }
      for (const doc of fields)
        if (doc.path.startsWith(`${parent}.`) && !doc.path.slice(parent.length + 1).includes('.'))
          options.push(fieldOption(doc));
    } else {
      for (const doc of fields) if (!doc.path.includes('.')) options.push(fieldOption(doc));
      if (!regexStyle && head.trim() && !/(\b(AND|OR|NOT)|\()\s*$/.test(head))
        options.push(...keywordOptions());
      else if (!regexStyle)
        options.push({ label: 'NOT', type: 'keyword', apply: thenComplete('NOT ') });
    }
    // Reused while the person types within the same path segment; a new `.` asks again, since
    // what follows it (nested fields, map keys) is a different list.
    const segments = typed.split('.').length;
    return {
      from,
      options,
      validFor: (text: string) => /^[\w.]*$/.test(text) && text.split('.').length === segments,
    };
  };
}

/**
 * The values to offer after `path` and a comparator: an enum's or a bool's (from the schema), a
 * map's keys after `:`, else the values the data holds for a string field or a map's key, the
 * most frequent first, each with how many records hold it (none when there are too many).
 */
function valueOptions(
  path: string,
  doc: FieldDoc | undefined,
  map: FieldDoc | undefined,
  head: string,
  sources: CompletionSources,
): Completion[] {
  if (map && !path.includes('.') && /:\s*$/.test(head))
    return mapKeys(sources.resources(), map.path).map((k) => ({
      label: k,
      type: 'enum',
      detail: 'key in the data',
    }));
  if (doc && doc.values.length > 0)
    return doc.values.map((v) => ({ label: v, type: 'enum', detail: doc.typeText }));
  if (!(map && path.includes('.') ? holdsStrings(map.type) : holdsStrings(doc?.type))) return [];
  const counted = valueCounts(sources.resources(), path) ?? [];
  return counted.map(({ value, count }, i) => ({
    label: value,
    type: 'enum',
    detail: `${count} record${count === 1 ? '' : 's'}`,
    // CodeMirror sorts by match, then boost: the most frequent first.
    boost: Math.max(-99, 50 - i),
  }));
}

/** Hover docs: a field's type, values and sortability; an operator's meaning in this style. */
export function filterHover(fields: () => readonly FieldDoc[]) {
  return (view: EditorView, pos: number): Tooltip | null => {
    const byPath = new Map(fields().map((f) => [f.path, f]));
    const line = view.state.doc.lineAt(pos);
    const text = line.text;
    const offset = pos - line.from;
    const regexStyle = detectFilterStyle(view.state.doc.toString()) === 'regex';
    // The word (path or keyword) or the run of operator characters under the pointer.
    const isWord = (c: string | undefined) => c !== undefined && /[\w.]/.test(c);
    const isOp = (c: string | undefined) => c !== undefined && /[=!<>:]/.test(c);
    const test = isWord(text[offset]) ? isWord : isOp(text[offset]) ? isOp : undefined;
    if (!test) return null;
    let start = offset;
    let end = offset;
    while (start > 0 && test(text[start - 1])) start--;
    while (end < text.length && test(text[end])) end++;
    const token = text.slice(start, end);
    const top = byPath.get(token.split('.')[0]!);
    let doc: string | undefined;
    const field = byPath.get(token);
    if (field) doc = fieldSummary(field);
    else if (top?.type.kind === 'map' && token.includes('.'))
      doc = `${token}: the value of the key “${token.slice(top.path.length + 1)}” in the map ${top.path} (${top.typeText})`;
    else if (OPERATOR_DOCS[token]) {
      const d = OPERATOR_DOCS[token]!;
      doc = `${token} (${regexStyle ? 'regex style' : 'AIP-160'}): ${regexStyle && d.regex ? d.regex : d.aip}`;
    }
    if (!doc) return null;
    const body = doc;
    return {
      pos: line.from + start,
      end: line.from + end,
      above: true,
      create: () => {
        const dom = document.createElement('div');
        dom.className = 'hover-doc';
        dom.textContent = body;
        return { dom };
      },
    };
  };
}
