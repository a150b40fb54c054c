// The schema a `listkit filter` run checks filters against: from --schema (listkit's schema JSON,
// a JSON Schema, or a .proto message), or inferred from the first records of the input.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  type FieldType,
  inferSchema,
  parseSchemaJson,
  type ResourceSchema,
  SchemaSourceError,
  type SchemaWarning,
  schemaFromJsonSchema,
} from '@listkit/query';
import { CliError, EXIT } from './cli-error.js';

/** The key of data that has none: records are numbered in input order. Filters cannot name it. */
export const POSITION_KEY = '$position';

export interface SchemaChoice {
  schema: ResourceSchema;
  /** True when the schema's key is {@link POSITION_KEY}: every record needs that property. */
  keyedByPosition: boolean;
}

/** The schema of `--schema FILE`; a `.proto` file loads protobufjs, which other runs never do. */
export async function schemaFromFile(
  file: string,
  options: { key?: string; message?: string },
  warn: (warning: SchemaWarning) => void,
): Promise<SchemaChoice> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`--schema ${file}: ${(error as Error).message}`, EXIT.input);
  }
  const warnings: SchemaWarning[] = [];
  const key = options.key === undefined ? {} : { key: options.key };
  try {
    if (file.endsWith('.proto')) {
      if (!options.message) {
        throw new CliError(
          `--schema ${file}: name the message with --message (package.Message)`,
          EXIT.usage,
        );
      }
      const { schemaFromProto } = await import('@listkit/query/proto');
      const schema = schemaFromProto(protoFiles(file, text), {
        message: options.message,
        ...key,
        warnings,
      });
      for (const warning of warnings) warn(warning);
      return { schema, keyedByPosition: false };
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new CliError(`--schema ${file}: not JSON (${(error as Error).message})`, EXIT.usage);
    }
    const isListkitSchema =
      value !== null &&
      typeof value === 'object' &&
      'fields' in value &&
      'key' in value &&
      !('properties' in value) &&
      !('$schema' in value);
    const schema = isListkitSchema
      ? parseSchemaJson(value)
      : schemaFromJsonSchema(value, { ...key, warnings });
    for (const warning of warnings) warn(warning);
    return { schema, keyedByPosition: false };
  } catch (error) {
    if (error instanceof SchemaSourceError) {
      throw new CliError(`--schema ${file}: ${error.message}`, EXIT.usage);
    }
    throw error;
  }
}

/**
 * A schema from sample records. Fields whose records disagree are left out (with a warning);
 * data with no usable key is keyed by input position. With `numbersAsDoubles` (listkit filter),
 * numbers are doubles whatever the sample held ({@link numbersAsDoubles}).
 */
export function schemaFromSample(
  sample: readonly object[],
  key: string | undefined,
  warn: (warning: SchemaWarning) => void,
  options: { numbersAsDoubles?: boolean } = {},
): SchemaChoice {
  const numbers = options.numbersAsDoubles ? numbersAsDoubles : (schema: ResourceSchema) => schema;
  const warnings: SchemaWarning[] = [];
  try {
    const schema = inferSchema(sample, {
      sampleSize: sample.length || 1,
      warnings,
      ...(key ? { key } : {}),
    });
    for (const warning of warnings) warn(warning);
    return { schema: numbers(schema), keyedByPosition: false };
  } catch (error) {
    if (!(error instanceof SchemaSourceError)) throw error;
    if (error.code !== 'invalid_option' || key !== undefined || sample.length === 0) {
      throw new CliError(`cannot infer a schema: ${error.message}`, EXIT.usage);
    }
  }
  const numbered = sample.map((record, i) => ({ ...record, [POSITION_KEY]: i }));
  const fresh: SchemaWarning[] = [];
  const schema = inferSchema(numbered, {
    sampleSize: sample.length,
    key: POSITION_KEY,
    warnings: fresh,
  });
  for (const warning of fresh) warn(warning);
  return { schema: numbers(schema), keyedByPosition: true };
}

/**
 * JSON has one number type: an inferred field whose sample held only integers is still a number
 * field (double), so `population > 1.5e6` is a valid filter and a later 2.5 is read, not missed.
 * Only the key keeps int64 (a double key could not be a page token's exact position).
 */
function numbersAsDoubles(schema: ResourceSchema): ResourceSchema {
  const convert = (type: FieldType, path: string): FieldType => {
    switch (type.kind) {
      case 'int64':
        return path === schema.key ? type : { ...type, kind: 'double' };
      case 'message':
        return {
          ...type,
          fields: Object.fromEntries(
            Object.entries(type.fields).map(([name, field]) => [
              name,
              convert(field, path ? `${path}.${name}` : name),
            ]),
          ),
        };
      case 'map':
        return { ...type, value: convert(type.value, `${path}.*`) };
      case 'repeated':
        return { ...type, element: convert(type.element, `${path}[]`) };
      default:
        return type;
    }
  };
  const root = convert({ kind: 'message', fields: schema.fields }, '') as {
    fields: ResourceSchema['fields'];
  };
  return { ...schema, fields: root.fields };
}

/** Gives a record its input position as a property JSON output never shows. */
export function numberRecord(record: object, position: number): void {
  Object.defineProperty(record, POSITION_KEY, { value: position, enumerable: false });
}

const IMPORT = /^\s*import\s+(?:public\s+|weak\s+)?"([^"]+)"\s*;/gm;

/**
 * The .proto file and the files it imports, by import path, found beside it or in the current
 * directory (google/protobuf/* come with the parser; a missing import matters only if a field's
 * type lives there).
 */
function protoFiles(file: string, text: string): Record<string, string> {
  const files: Record<string, string> = { [file]: text };
  const roots = [dirname(file), process.cwd()];
  const pending = [text];
  while (pending.length > 0 && Object.keys(files).length < 1000) {
    for (const [, imported] of pending.pop()!.matchAll(IMPORT)) {
      if (imported === undefined || imported in files || imported.startsWith('google/protobuf/'))
        continue;
      for (const root of roots) {
        const path = join(root, imported);
        if (!existsSync(path)) continue;
        const content = readFileSync(path, 'utf8');
        files[imported] = content;
        pending.push(content);
        break;
      }
    }
  }
  return files;
}
