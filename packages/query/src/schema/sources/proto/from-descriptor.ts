// protobuf-es descriptors (@bufbuild/protobuf v2's DescMessage, what Connect users have) →
// ProtoMessage. Read structurally, so @listkit/query does not depend on @bufbuild/protobuf.
import type { ProtoMessage, ProtoScalar, ProtoValue } from './proto-message.js';

/**
 * The parts of a protobuf-es `DescMessage` that {@link schemaFromProto} reads.
 *
 * @example
 * ```ts
 * import { BookSchema } from './gen/library_pb.js'; // a DescMessage
 * const desc: DescMessageLike = BookSchema;
 * ```
 */
export interface DescMessageLike {
  readonly kind: 'message';
  readonly typeName: string;
  readonly fields: readonly DescFieldLike[];
}

/**
 * A field of a {@link DescMessageLike}.
 *
 * @example
 * ```ts
 * const field: DescFieldLike = BookSchema.fields[0]; // { fieldKind: 'scalar', jsonName: 'name', … }
 * ```
 */
export interface DescFieldLike {
  readonly name: string;
  readonly jsonName: string;
  readonly fieldKind: 'scalar' | 'enum' | 'message' | 'list' | 'map';
  readonly listKind?: 'scalar' | 'enum' | 'message' | undefined;
  readonly mapKind?: 'scalar' | 'enum' | 'message' | undefined;
  readonly scalar?: number | undefined;
  readonly enum?: { readonly values: readonly { readonly name: string }[] } | undefined;
  readonly message?: DescMessageLike | undefined;
}

// protobuf-es ScalarType numbers (descriptor.proto's FieldDescriptorProto.Type).
const SCALARS: Readonly<Record<number, ProtoScalar>> = {
  1: 'double',
  2: 'float',
  3: 'int64',
  4: 'uint64',
  5: 'int32',
  6: 'fixed64',
  7: 'fixed32',
  8: 'bool',
  9: 'string',
  12: 'bytes',
  13: 'uint32',
  15: 'sfixed32',
  16: 'sfixed64',
  17: 'sint32',
  18: 'sint64',
};

export function isDescMessage(value: unknown): value is DescMessageLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as DescMessageLike).kind === 'message' &&
    Array.isArray((value as DescMessageLike).fields)
  );
}

export function messageFromDescriptor(desc: DescMessageLike): ProtoMessage {
  return {
    fullName: desc.typeName,
    // Extensions (google.api.resource) need the generated extension to read: the key comes
    // from the options or the name/id default.
    isResource: false,
    fields: desc.fields.map((field) => {
      const kind =
        field.fieldKind === 'list'
          ? field.listKind
          : field.fieldKind === 'map'
            ? field.mapKind
            : field.fieldKind;
      return {
        name: field.name,
        jsonName: field.jsonName,
        cardinality:
          field.fieldKind === 'list' ? 'repeated' : field.fieldKind === 'map' ? 'map' : 'single',
        value: fieldValue(field, kind ?? 'scalar'),
      } as const;
    }),
  };
}

function fieldValue(field: DescFieldLike, kind: string): ProtoValue {
  if (kind === 'enum')
    return { kind: 'enum', values: (field.enum?.values ?? []).map((v) => v.name) };
  if (kind === 'message' && field.message) {
    const message = field.message;
    return { kind: 'message', message: () => messageFromDescriptor(message) };
  }
  return { kind: 'scalar', scalar: SCALARS[field.scalar ?? 9] ?? 'string' };
}
