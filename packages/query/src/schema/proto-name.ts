// The proto spelling of a field known by its JSON name, for schemas whose filters accept it
// (ResourceSchema.fieldNames).
import type { FieldType } from './field-type.js';

/**
 * The proto name of a field known by its JSON name: its declared `protoName`, else the
 * snake_case of the JSON name (`publishTime` → `publish_time`), which is what protoc would have
 * derived the JSON name from.
 *
 * @example
 * ```ts
 * protoNameOf('publishTime', t.timestamp()); // 'publish_time'
 * ```
 */
export function protoNameOf(jsonName: string, type: FieldType): string {
  return (
    type.protoName ??
    jsonName.replace(/[A-Z]/g, (c, at: number) => (at === 0 ? '' : '_') + c.toLowerCase())
  );
}
