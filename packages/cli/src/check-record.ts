// A record read with --schema, checked against that schema before the filter sees it: a value of
// the wrong type (a year written "1999a", a boolean written 1) would otherwise never match a
// filter and sort as unset, without a word.
import { checkResource, ListkitError, type ResourceSchema } from '@listkit/query';
import { CliError, EXIT } from './cli-error.js';
import type { RecordOrigin } from './read-records.js';

/**
 * The record as the schema reads it, or a CliError (malformed input) naming the file, the line,
 * the field's path, the value and the type expected. With `coerce`, the shapes other tools write
 * (0/1 booleans, decimal text for doubles, `null` for unset) are converted instead.
 *
 * @example
 * ```ts
 * record = checkRecordAgainstSchema(record, choice.schema, origin, options.coerce);
 * ```
 */
export function checkRecordAgainstSchema(
  record: unknown,
  schema: ResourceSchema,
  origin: RecordOrigin,
  coerce: boolean,
): object {
  try {
    return checkResource(schema, record as object, { coerce });
  } catch (error) {
    if (!(error instanceof ListkitError)) throw error;
    const hint = coerce ? '' : ' (--coerce converts what other tools write: 0/1, "12.5", null)';
    throw new CliError(
      `${origin.file}:${origin.line}: does not match --schema: ${error.message}${hint}`,
      EXIT.input,
    );
  }
}
