// Schemas from protobuf messages: `.proto` text (protobufjs) or a protobuf-es descriptor. Only
// the `@listkit/query/proto` entry imports this file, so the main entry never loads protobufjs.
import type { ResourceSchema } from '../../field-type.js';
import { SchemaSourceError } from '../schema-source.js';
import { type DescMessageLike, isDescMessage, messageFromDescriptor } from './from-descriptor.js';
import { messageFromProtoText } from './from-protobufjs.js';
import { type ProtoSchemaOptions, schemaFromProtoMessage } from './proto-message.js';

/**
 * A protobuf message as a {@link ResourceSchema}, from `.proto` source text (one file, or files
 * by import path so imports resolve; parsed with protobufjs) or from a protobuf-es `DescMessage`.
 * Field names are their JSON names (lowerCamel or `json_name`); every integer type is int64,
 * float and double are double, bytes are (base64) strings; enums keep their declared order;
 * `map<,>`, `repeated`, nested messages (cut at `maxDepth`), `optional` and oneof members map
 * as such; `google.protobuf.Timestamp`, `Duration` and the wrappers map to their values, while
 * `Struct`, `Value`, `ListValue` and `Any` are refused (or skipped into `warnings`). The key is
 * `name` for a message with `option (google.api.resource)`, else `name`, else `id`, unless
 * `options.key` says otherwise. `fieldTypes` retypes fields an API declares as strings. Filters
 * and orderBy accept both the JSON and the proto spelling of field names (`publishTime` and
 * `publish_time`) unless `options.fieldNames` says `json` or `proto`.
 *
 * @example
 * ```ts
 * import { schemaFromProto } from '@listkit/query/proto';
 *
 * const schema = schemaFromProto(
 *   { 'google/cloud/compute/v1/compute.proto': readFileSync(path, 'utf8') },
 *   { message: 'google.cloud.compute.v1.ForwardingRule', fieldTypes: { creationTimestamp: 'timestamp' } },
 * );
 * compileFilter('labels.env = prod AND IPProtocol = TCP', schema);
 *
 * schemaFromProto(BookSchema); // a protobuf-es DescMessage
 * parseOrderBy('create_time desc', schemaFromProto(BookSchema)).canonical; // 'createTime desc'
 * ```
 */
export function schemaFromProto(
  source: string | Readonly<Record<string, string>> | DescMessageLike,
  options: ProtoSchemaOptions = {},
): ResourceSchema {
  if (isDescMessage(source)) return schemaFromProtoMessage(messageFromDescriptor(source), options);
  if (!options.message) {
    throw new SchemaSourceError(
      'invalid_option',
      '',
      'a .proto source needs options.message, the fully qualified message name',
    );
  }
  const files = typeof source === 'string' ? { 'input.proto': source } : source;
  return schemaFromProtoMessage(messageFromProtoText(files, options.message), options);
}
