// One neutral view of a protobuf message, whichever library described it (protobufjs from .proto
// text, protobuf-es descriptors), and the one mapping from it to a ResourceSchema.
import { type FieldNames, protoNameOf } from '../../field-names.js';
import { defineSchema, type FieldType, type ResourceSchema } from '../../field-type.js';
import { withOptions } from '../apply-options.js';
import { SchemaSourceError, type SchemaSourceOptions, unsupported } from '../schema-source.js';

export type ProtoScalar =
  | 'double'
  | 'float'
  | 'int32'
  | 'int64'
  | 'uint32'
  | 'uint64'
  | 'sint32'
  | 'sint64'
  | 'fixed32'
  | 'fixed64'
  | 'sfixed32'
  | 'sfixed64'
  | 'bool'
  | 'string'
  | 'bytes';

export type ProtoValue =
  | { kind: 'scalar'; scalar: ProtoScalar }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'message'; message: () => ProtoMessage };

export interface ProtoField {
  /** The name in the .proto file (`creation_timestamp`). */
  name: string;
  /** The JSON name filters use (`creationTimestamp`, or `json_name`). */
  jsonName: string;
  cardinality: 'single' | 'repeated' | 'map';
  value: ProtoValue;
}

export interface ProtoMessage {
  /** Fully qualified, without a leading dot (`google.protobuf.Timestamp`). */
  fullName: string;
  /** Declares `option (google.api.resource)`: its `name` field is the resource name. */
  isResource: boolean;
  fields: readonly ProtoField[];
}

/**
 * Options of {@link schemaFromProto}.
 *
 * @example
 * ```ts
 * const options: ProtoSchemaOptions = {
 *   message: 'google.cloud.compute.v1.ForwardingRule',
 *   fieldTypes: { creationTimestamp: 'timestamp' }, // Compute types it as a string
 * };
 * ```
 */
export interface ProtoSchemaOptions extends SchemaSourceOptions {
  /** The fully qualified message, for .proto sources (`google.cloud.compute.v1.ForwardingRule`). */
  message?: string;
  /**
   * Types by JSON field path that win over the proto's, for fields an API declares as strings
   * but filters as timestamps (Compute's `creationTimestamp`) or durations.
   */
  fieldTypes?: Readonly<Record<string, 'timestamp' | 'duration' | 'string' | 'int64' | 'double'>>;
  /** How many times one message may appear within itself (recursion cut). Default 3. */
  maxDepth?: number;
  /**
   * How filters and orderBy may spell field names. Default `both`: a proto-first server's
   * callers write the proto names (`publish_time`, as gRPC clients and Google's proto-first API
   * references do) or the JSON names (`publishTime`, over REST), and either must work.
   */
  fieldNames?: FieldNames;
}

const WELL_KNOWN: Readonly<Record<string, FieldType | null>> = {
  'google.protobuf.Timestamp': { kind: 'timestamp' },
  'google.protobuf.Duration': { kind: 'duration' },
  'google.protobuf.DoubleValue': { kind: 'double' },
  'google.protobuf.FloatValue': { kind: 'double' },
  'google.protobuf.Int64Value': { kind: 'int64' },
  'google.protobuf.UInt64Value': { kind: 'int64' },
  'google.protobuf.Int32Value': { kind: 'int64' },
  'google.protobuf.UInt32Value': { kind: 'int64' },
  'google.protobuf.BoolValue': { kind: 'bool' },
  'google.protobuf.StringValue': { kind: 'string' },
  'google.protobuf.BytesValue': { kind: 'string' },
  // Any value at all: no one type to check a filter against.
  'google.protobuf.Struct': null,
  'google.protobuf.Value': null,
  'google.protobuf.ListValue': null,
  'google.protobuf.Any': null,
};

/** A protobuf message as a ResourceSchema (see {@link schemaFromProto} for the rules). */
export function schemaFromProtoMessage(
  message: ProtoMessage,
  options: ProtoSchemaOptions,
): ResourceSchema {
  const open = new Map<string, number>([[message.fullName, 1]]);
  let fields = messageFields(message, '', options, open);
  for (const [path, kind] of Object.entries(options.fieldTypes ?? {})) {
    fields = override(fields, path.split('.'), kind, path);
  }
  const key =
    options.key ??
    (message.isResource && isKeyType(fields.name)
      ? 'name'
      : (['name', 'id'] as const).find((k) => isKeyType(fields[k])));
  if (key === undefined) {
    throw new SchemaSourceError(
      'invalid_option',
      message.fullName,
      "no key: the message has no 'name' or 'id' field; name the key field",
    );
  }
  return defineSchema(
    withOptions({ key, fields, fieldNames: options.fieldNames ?? 'both' }, options),
  );
}

function isKeyType(type: FieldType | undefined): boolean {
  return type?.kind === 'string' || type?.kind === 'int64';
}

function messageFields(
  message: ProtoMessage,
  prefix: string,
  options: ProtoSchemaOptions,
  open: Map<string, number>,
): Record<string, FieldType> {
  const fields: Record<string, FieldType> = {};
  for (const field of message.fields) {
    const at = `${message.fullName}.${field.name}`;
    const path = prefix ? `${prefix}.${field.jsonName}` : field.jsonName;
    const value = valueType(field.value, at, path, options, open);
    if (!value) continue;
    const type: FieldType =
      field.cardinality === 'single'
        ? { ...value }
        : field.cardinality === 'repeated'
          ? { kind: 'repeated', element: value }
          : { kind: 'map', value };
    // Only a json_name option makes the proto name other than the JSON name's snake_case.
    if (protoNameOf(field.jsonName, type) !== field.name) type.protoName = field.name;
    fields[field.jsonName] = type;
  }
  return fields;
}

function valueType(
  value: ProtoValue,
  at: string,
  path: string,
  options: ProtoSchemaOptions,
  open: Map<string, number>,
): FieldType | undefined {
  switch (value.kind) {
    case 'scalar':
      return scalarType(value.scalar);
    case 'enum':
      return { kind: 'enum', values: value.values };
    case 'message': {
      const message = value.message();
      if (Object.hasOwn(WELL_KNOWN, message.fullName)) {
        const known = WELL_KNOWN[message.fullName];
        if (known) return known;
        unsupported(options, {
          at,
          field: path,
          message: `${message.fullName} holds any value; it has no one listkit type`,
        });
        return undefined;
      }
      const depth = open.get(message.fullName) ?? 0;
      if (depth >= (options.maxDepth ?? 3)) return undefined; // recursion cut
      open.set(message.fullName, depth + 1);
      try {
        return { kind: 'message', fields: messageFields(message, path, options, open) };
      } finally {
        open.set(message.fullName, depth);
      }
    }
  }
}

function scalarType(scalar: ProtoScalar): FieldType {
  switch (scalar) {
    case 'double':
    case 'float':
      return { kind: 'double' };
    case 'bool':
      return { kind: 'bool' };
    case 'string':
    // bytes are base64 text in JSON: equal when their encodings are.
    case 'bytes':
      return { kind: 'string' };
    default:
      // Every integer: 64-bit ones are JSON strings, 32-bit ones numbers; int64 compares both exactly.
      return { kind: 'int64' };
  }
}

function override(
  fields: Record<string, FieldType>,
  [head, ...rest]: string[],
  kind: NonNullable<ProtoSchemaOptions['fieldTypes']>[string],
  path: string,
): Record<string, FieldType> {
  const type = fields[head!];
  if (!type)
    throw new SchemaSourceError('invalid_option', path, `fieldTypes names no field '${path}'`);
  if (rest.length === 0) {
    const scalarOf = (t: FieldType): boolean => !['message', 'map', 'repeated'].includes(t.kind);
    if (type.kind === 'repeated' && scalarOf(type.element)) {
      return { ...fields, [head!]: { ...type, element: { kind } } };
    }
    if (!scalarOf(type))
      throw new SchemaSourceError(
        'invalid_option',
        path,
        `fieldTypes: '${path}' is a ${type.kind}, not a scalar`,
      );
    return { ...fields, [head!]: { kind, ...protoNameKept(type) } };
  }
  if (type.kind !== 'message')
    throw new SchemaSourceError('invalid_option', path, `fieldTypes: '${head}' is not a message`);
  return {
    ...fields,
    [head!]: { ...type, fields: override({ ...type.fields }, rest, kind, path) },
  };
}

function protoNameKept(type: FieldType): { protoName?: string } {
  return type.protoName === undefined ? {} : { protoName: type.protoName };
}

/** lowerCamelCase of a proto field name, as protoc derives JSON names. */
export function jsonNameOf(name: string): string {
  return name.replace(/_([a-z0-9])/gi, (_, c: string) => c.toUpperCase());
}
