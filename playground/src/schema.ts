// The schema the playground checks filters against.
import { defineSchema, type ResourceSchema, t } from '@listkit/query';
import { forwardingRuleSchema } from '@listkit/service/schema';

/**
 * Compute's forwarding-rule schema with `name` and `description` declared searchable. Compute's
 * API refuses a bare value (every expression needs a field, an operator and a value), so the
 * emulator's schema declares no searchable field; the library still offers global search to
 * schemas that declare some, and the playground shows it.
 */
export const playgroundSchema: ResourceSchema = defineSchema({
  ...forwardingRuleSchema,
  fields: {
    ...forwardingRuleSchema.fields,
    name: t.string({ sortable: true, searchable: true }),
    description: t.string({ searchable: true }),
  },
});
