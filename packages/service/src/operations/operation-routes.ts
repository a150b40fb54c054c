import type { Context, Hono } from 'hono';
import type { EmulatorEnv, EmulatorState } from '../emulator-state.js';
import type { PathTarget } from '../http/api-call.js';
import { apiCall } from '../http/api-call.js';
import { readJsonBody } from '../http/body.js';
import {
  LIST_PARAMETERS,
  onScopeOf,
  READ_SCOPES,
  REGIONAL,
  regionOf,
  WRITE_SCOPES,
} from '../http/compute-call.js';
import { listAnswer, listParams } from '../http/list-params.js';
import { jsonAnswer } from '../http/pretty-print.js';
import { type ScopeRef, scopedCollectionName } from '../names/resource-names.js';
import { DELETED_OPERATION, OPERATION, OPERATION_LIST } from './operation-answers.js';
import { operationNotFound } from './operations.js';

/**
 * What the operation routes need to know of the scope they serve: regional operations
 * (`compute.regionOperations`) or global ones (`compute.globalOperations`, served for global
 * forwarding rules), which differ only in these.
 *
 * @example
 * ```ts
 * operationRoutes(app, state, REGION_OPERATIONS);
 * ```
 */
export interface OperationRoutesScope {
  /** The route path of the scope (`…/regions/:region`, `…/global`). */
  readonly path: string;
  /** The API's name of the collection: the prefix of its methods and IAM permissions. */
  readonly resource: string;
  /** The scope a request's path names. */
  scopeOf(c: Context): ScopeRef;
}

/**
 * Regional operations' scope.
 *
 * @example
 * ```ts
 * REGION_OPERATIONS.resource; // 'compute.regionOperations'
 * ```
 */
export const REGION_OPERATIONS: OperationRoutesScope = {
  path: REGIONAL,
  resource: 'compute.regionOperations',
  scopeOf: regionOf,
};

/** Compute Engine's operations of one scope (regional by default, or global): get, wait, delete and list. */
export function operationRoutes(
  app: Hono<EmulatorEnv>,
  state: EmulatorState,
  scope: OperationRoutesScope = REGION_OPERATIONS,
): void {
  const { path, resource, scopeOf } = scope;
  const onScope = (name: string) => onScopeOf(scopeOf, name);
  const target = (c: Context): PathTarget => {
    const name = c.req.param('operation')!;
    return { names: [name], missing: () => operationNotFound(scopeOf(c), name) };
  };

  app.get(
    `${path}/operations/:operation`,
    apiCall(state, {
      method: `${resource}.get`,
      scopes: READ_SCOPES,
      permission: onScope(`${resource}.get`),
      target,
      answer: OPERATION,
    }),
    async (c) => {
      // Hono answers HEAD with this GET handler; a HEAD reads nothing, so it is no poll.
      const name = c.req.param('operation');
      if (c.req.method === 'HEAD')
        return jsonAnswer(c, await state.operations.peek(scopeOf(c), name));
      return jsonAnswer(c, await state.operations.get(scopeOf(c), name));
    },
  );

  app.post(
    `${path}/operations/:operation/wait`,
    apiCall(state, {
      method: `${resource}.wait`,
      scopes: READ_SCOPES,
      permission: onScope(`${resource}.get`),
      target,
      answer: OPERATION,
    }),
    async (c) => {
      await readJsonBody(c.req.raw, '', state.bodyLimit); // the Node client sends the two bytes ""
      return jsonAnswer(c, await state.operations.wait(scopeOf(c), c.req.param('operation')));
    },
  );

  app.delete(
    `${path}/operations/:operation`,
    apiCall(state, {
      method: `${resource}.delete`,
      scopes: WRITE_SCOPES,
      permission: onScope(`${resource}.delete`),
      target,
      answer: DELETED_OPERATION,
    }),
    async (c) => {
      await state.operations.delete(scopeOf(c), c.req.param('operation'));
      return jsonAnswer(c, {});
    },
  );

  app.get(
    `${path}/operations`,
    apiCall(state, {
      method: `${resource}.list`,
      scopes: READ_SCOPES,
      permission: onScope(`${resource}.list`),
      parameters: LIST_PARAMETERS,
      answer: OPERATION_LIST,
    }),
    async (c) => {
      const where = scopeOf(c);
      const page = await state.operations.page(where, {
        ...listParams(c),
        context: { project: where.project },
      });
      return jsonAnswer(
        c,
        listAnswer(
          'compute#operationList',
          scopedCollectionName(where, 'operations'),
          state.urls.operations(where.project, where.region),
          page,
        ),
      );
    },
  );
}
