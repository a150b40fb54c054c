// .proto source text → ProtoMessage, through protobufjs (the parser google-gax uses). Imports of
// google/protobuf/* come with protobufjs; others resolve from the files given, and a missing one
// matters only if a field's type lives there (options such as google.api.* are read as written).
import protobuf from 'protobufjs';
import { SchemaSourceError } from '../schema-source.js';
import {
  jsonNameOf,
  type ProtoMessage,
  type ProtoScalar,
  type ProtoValue,
} from './proto-message.js';

const SCALARS = new Set<string>([
  'double',
  'float',
  'int32',
  'int64',
  'uint32',
  'uint64',
  'sint32',
  'sint64',
  'fixed32',
  'fixed64',
  'sfixed32',
  'sfixed64',
  'bool',
  'string',
  'bytes',
]);

/** Parses the files (path → text) and returns the message named `fullName`. */
export function messageFromProtoText(
  files: Readonly<Record<string, string>>,
  fullName: string,
): ProtoMessage {
  const root = new protobuf.Root();
  const loaded = new Set<string>();
  const load = (path: string, text: string) => {
    if (loaded.has(path)) return;
    loaded.add(path);
    let parsed: protobuf.IParserResult;
    try {
      parsed = protobuf.parse(text, root, { keepCase: true, alternateCommentMode: true });
    } catch (error) {
      throw new SchemaSourceError('invalid_source', path, (error as Error).message);
    }
    for (const imported of [...(parsed.imports ?? []), ...(parsed.weakImports ?? [])]) {
      const common = protobuf.common.get(imported);
      if (common && !loaded.has(imported)) {
        loaded.add(imported);
        root.addJSON(common.nested as protobuf.INamespace['nested'] & object);
      } else if (Object.hasOwn(files, imported)) {
        load(imported, files[imported]!);
      }
    }
  };
  for (const [path, text] of Object.entries(files)) load(path, text);
  const type = root.lookup(fullName.replace(/^\./, ''));
  if (!(type instanceof protobuf.Type)) {
    throw new SchemaSourceError(
      'unresolved_reference',
      fullName,
      type
        ? `'${fullName}' is not a message`
        : `no message '${fullName}' in ${Object.keys(files).join(', ')}`,
    );
  }
  return view(type);
}

const views = new WeakMap<protobuf.Type, ProtoMessage>();

function view(type: protobuf.Type): ProtoMessage {
  const known = views.get(type);
  if (known) return known;
  const fullName = type.fullName.replace(/^\./, '');
  const message: ProtoMessage = {
    fullName,
    isResource: Object.keys(type.options ?? {}).some((o) => o.startsWith('(google.api.resource)')),
    fields: type.fieldsArray.map((field) => {
      const at = `${fullName}.${field.name}`;
      const jsonName = (field.options?.json_name as string | undefined) ?? jsonNameOf(field.name);
      const map = field instanceof protobuf.MapField;
      return {
        name: field.name,
        jsonName,
        cardinality: map ? 'map' : field.repeated ? 'repeated' : 'single',
        value: fieldValue(field, at),
      } as const;
    }),
  };
  views.set(type, message);
  return message;
}

function fieldValue(field: protobuf.Field, at: string): ProtoValue {
  if (SCALARS.has(field.type)) return { kind: 'scalar', scalar: field.type as ProtoScalar };
  let resolved: protobuf.ReflectionObject | null;
  try {
    field.resolve();
    resolved = field.resolvedType;
  } catch (error) {
    throw new SchemaSourceError(
      'unresolved_reference',
      at,
      `type '${field.type}' does not resolve (${(error as Error).message})`,
    );
  }
  if (resolved instanceof protobuf.Enum)
    return { kind: 'enum', values: Object.keys(resolved.values) };
  if (resolved instanceof protobuf.Type) {
    const type = resolved;
    return { kind: 'message', message: () => view(type) };
  }
  throw new SchemaSourceError('unresolved_reference', at, `type '${field.type}' does not resolve`);
}
