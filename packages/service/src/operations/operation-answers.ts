import { listResponseType, type MessageType, t } from '@listkit/query';
import { operationSchema } from './operation-schema.js';

/**
 * Compute's warning message (`Operation.warnings[]`, a list answer's `warning`).
 *
 * @example
 * ```ts
 * compileFieldMask('warning/code', t.message({ warning: COMPUTE_WARNING }));
 * ```
 */
export const COMPUTE_WARNING: MessageType = t.message({
  code: t.string(),
  message: t.string(),
  data: t.repeated(t.message({ key: t.string(), value: t.string() })),
});

/**
 * An Operation (the answer of insert, delete, patch, setLabels, setTarget, and of the
 * operations' get and wait): the filterable fields and the rest of Compute's Operation message.
 *
 * @example
 * ```ts
 * apiCall(state, { method: 'compute.regionOperations.wait', scopes, answer: OPERATION });
 * ```
 */
export const OPERATION: MessageType = t.message({
  ...operationSchema.fields,
  zone: t.string(),
  statusMessage: t.string(),
  operationGroupId: t.string(),
  error: t.message({
    errors: t.repeated(
      t.message({
        code: t.string(),
        location: t.string(),
        message: t.string(),
        errorDetails: t.repeated(t.message({})),
      }),
    ),
  }),
  warnings: t.repeated(COMPUTE_WARNING),
});

/**
 * An OperationList (the answer of the operations' list).
 *
 * @example
 * ```ts
 * compileFieldMask('items(name,status)', OPERATION_LIST);
 * ```
 */
export const OPERATION_LIST: MessageType = listResponseType(
  { key: 'name', fields: OPERATION.fields },
  { fields: { kind: t.string(), id: t.string(), selfLink: t.string(), warning: COMPUTE_WARNING } },
);

/**
 * The answer of an operation's delete: an empty object.
 *
 * @example
 * ```ts
 * apiCall(state, { method: 'compute.regionOperations.delete', scopes, answer: DELETED_OPERATION });
 * ```
 */
export const DELETED_OPERATION: MessageType = t.message({});
