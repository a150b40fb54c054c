// @listkit/query/proto: schemas from protobuf messages. Its own entry, so that the main entry
// never loads protobufjs.
export type { DescFieldLike, DescMessageLike } from './schema/sources/proto/from-descriptor.js';
export type { ProtoSchemaOptions } from './schema/sources/proto/proto-message.js';
export { schemaFromProto } from './schema/sources/proto/schema-from-proto.js';
