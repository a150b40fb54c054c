// Where the page's schema comes from: the dataset's own, inferred from the data, or text a
// person pastes (a JSON Schema, a `.proto` message, or listkit's schema JSON), then the key,
// orderings and searchable fields they set. protobufjs is loaded only when a `.proto` is used.
import {
  inferSchema,
  parseSchemaJson,
  type ResourceSchema,
  SchemaSourceError,
  type SchemaWarning,
  schemaFromJsonSchema,
} from '@listkit/query';
import type { Resource } from './datasets/dataset.js';

export interface SchemaOverrides {
  key?: string;
  /** The only orderBy values accepted; absent: any ordering of sortable fields. */
  orderings?: string[];
  /** String fields searched by bare values; absent: as the source says. */
  searchable?: string[];
}

export type SchemaTextKind = 'JSON Schema' | 'listkit schema JSON' | '.proto';

export interface BuiltSchema {
  schema: ResourceSchema;
  /** How it was made, in words: "inferred from 40 records". */
  origin: string;
  warnings: string[];
}

/** What pasted schema text is: `.proto` source, listkit's JSON (`key` and `fields`), or JSON Schema. */
export function schemaTextKind(text: string): SchemaTextKind {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return '.proto';
  try {
    const value = JSON.parse(trimmed) as Record<string, unknown>;
    if ('fields' in value && 'key' in value && !('properties' in value))
      return 'listkit schema JSON';
  } catch {
    // reported by the parser that follows
  }
  return 'JSON Schema';
}

/** The message a `.proto` describes: the one with `option (google.api.resource)`, else the first. */
export function protoMessageName(text: string): string | undefined {
  const pkg = /^\s*package\s+([\w.]+)\s*;/m.exec(text)?.[1];
  const messages = [...text.matchAll(/^message\s+(\w+)\s*\{/gm)];
  const resource = messages.find((m) =>
    text.slice(m.index, text.indexOf('\n}', m.index)).includes('google.api.resource'),
  );
  const name = (resource ?? messages[0])?.[1];
  return name && (pkg ? `${pkg}.${name}` : name);
}

/** Builds the schema from pasted text. Throws SchemaSourceError (or SyntaxError) with a message. */
export async function schemaFromText(
  text: string,
  message: string | undefined,
  warnings: SchemaWarning[],
): Promise<{ schema: ResourceSchema; kind: SchemaTextKind }> {
  const kind = schemaTextKind(text);
  if (kind === '.proto') {
    const name = message || protoMessageName(text);
    if (!name) throw new SchemaSourceError('invalid_source', '', 'the .proto declares no message');
    const { schemaFromProto } = await import('@listkit/query/proto');
    return { schema: schemaFromProto(text, { message: name, warnings }), kind };
  }
  const value = JSON.parse(text) as unknown;
  if (kind === 'listkit schema JSON') return { schema: parseSchemaJson(value), kind };
  return { schema: schemaFromJsonSchema(value as object, { warnings }), kind };
}

/** The key `inferSchema` cannot choose: the first top-level scalar field unique in every record. */
function guessKey(resources: readonly Resource[]): string | undefined {
  const first = resources[0];
  if (!first) return undefined;
  for (const [field, value] of Object.entries(first)) {
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    const seen = new Set<unknown>();
    if (resources.every((r) => r[field] != null && !seen.has(r[field]) && seen.add(r[field])))
      return field;
  }
  return undefined;
}

/** The schema inferred from the records, keyed by `key`, or by a field found unique. */
export function inferFrom(
  resources: readonly Resource[],
  key: string | undefined,
  warnings: SchemaWarning[],
): ResourceSchema {
  try {
    return inferSchema(resources, { key, warnings });
  } catch (error) {
    const guessed = key ? undefined : guessKey(resources);
    if (!(error instanceof SchemaSourceError) || error.code !== 'invalid_option' || !guessed)
      throw error;
    return inferSchema(resources, { key: guessed, warnings });
  }
}

/** The schema with the person's key, orderings and searchable fields, checked as listkit JSON. */
export function withOverrides(schema: ResourceSchema, overrides: SchemaOverrides): ResourceSchema {
  if (!overrides.key && !overrides.orderings && !overrides.searchable) return schema;
  const fields = { ...schema.fields };
  if (overrides.searchable) {
    const wanted = new Set(overrides.searchable);
    for (const [name, type] of Object.entries(fields)) {
      if (type.kind !== 'string') continue;
      fields[name] = { ...type, searchable: wanted.has(name) || undefined };
      wanted.delete(name);
    }
    const [unknown] = wanted;
    if (unknown !== undefined)
      throw new SchemaSourceError(
        'invalid_option',
        unknown,
        `searchable '${unknown}' must name a top-level string field`,
      );
  }
  const next: ResourceSchema = {
    key: overrides.key || schema.key,
    fields,
    ...(overrides.orderings
      ? { orderings: overrides.orderings }
      : schema.orderings
        ? { orderings: schema.orderings }
        : {}),
  };
  return parseSchemaJson(JSON.parse(JSON.stringify(next)));
}

/** A source's problem as one line for the page. */
export function schemaErrorText(error: unknown): string {
  if (error instanceof SyntaxError) return `The schema is not valid JSON: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
