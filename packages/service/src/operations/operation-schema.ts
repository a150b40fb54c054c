import { defineSchema, type ResourceSchema, t } from '@listkit/query';

/**
 * The filterable, sortable shape of a Compute Engine Operation.
 *
 * @example
 * ```ts
 * compileFilter('operationType = insert AND status != DONE', operationSchema);
 * ```
 */
export const operationSchema: ResourceSchema = defineSchema({
  key: 'name',
  orderings: ['', 'name', 'creationTimestamp desc'],
  fields: {
    kind: t.string(),
    id: t.int64(),
    name: t.string(),
    creationTimestamp: t.timestamp(),
    operationType: t.string(),
    status: t.enum(['PENDING', 'RUNNING', 'DONE']),
    progress: t.int64(),
    targetLink: t.string(),
    targetId: t.int64(),
    user: t.string(),
    insertTime: t.timestamp(),
    startTime: t.timestamp(),
    endTime: t.timestamp(),
    region: t.string(),
    selfLink: t.string(),
    clientOperationId: t.string(),
    httpErrorStatusCode: t.int64(),
    httpErrorMessage: t.string(),
    description: t.string(),
  },
});
