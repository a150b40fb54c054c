import type { Hono } from 'hono';
import type { EmulatorEnv, EmulatorState } from '../emulator-state.js';
import { apiCall } from '../http/api-call.js';
import { readJsonBody } from '../http/body.js';
import {
  onRegion,
  operationTarget,
  READ_SCOPES,
  REGIONAL,
  regionOf,
  WRITE_SCOPES,
} from '../http/compute-call.js';
import { listAnswer, listParams } from '../http/list-params.js';
import { regionalCollectionName } from '../names/resource-names.js';

/** Compute Engine's regional operations: get, wait, delete and list. */
export function operationRoutes(app: Hono<EmulatorEnv>, state: EmulatorState): void {
  app.get(
    `${REGIONAL}/operations/:operation`,
    apiCall(state, {
      method: 'compute.regionOperations.get',
      scopes: READ_SCOPES,
      permission: onRegion('compute.regionOperations.get'),
      target: operationTarget,
    }),
    async (c) => {
      // Hono answers HEAD with this GET handler; a HEAD reads nothing, so it is no poll.
      const name = c.req.param('operation');
      if (c.req.method === 'HEAD') return c.json(await state.operations.peek(regionOf(c), name));
      return c.json(await state.operations.get(regionOf(c), name));
    },
  );

  app.post(
    `${REGIONAL}/operations/:operation/wait`,
    apiCall(state, {
      method: 'compute.regionOperations.wait',
      scopes: READ_SCOPES,
      permission: onRegion('compute.regionOperations.get'),
      target: operationTarget,
    }),
    async (c) => {
      await readJsonBody(c.req.raw, '', state.bodyLimit); // the Node client sends the two bytes ""
      return c.json(await state.operations.wait(regionOf(c), c.req.param('operation')));
    },
  );

  app.delete(
    `${REGIONAL}/operations/:operation`,
    apiCall(state, {
      method: 'compute.regionOperations.delete',
      scopes: WRITE_SCOPES,
      permission: onRegion('compute.regionOperations.delete'),
      target: operationTarget,
    }),
    async (c) => {
      await state.operations.delete(regionOf(c), c.req.param('operation'));
      return c.json({});
    },
  );

  app.get(
    `${REGIONAL}/operations`,
    apiCall(state, {
      method: 'compute.regionOperations.list',
      scopes: READ_SCOPES,
      permission: onRegion('compute.regionOperations.list'),
    }),
    async (c) => {
      const { project, region } = regionOf(c);
      const page = await state.operations.page(
        { project, region },
        { ...listParams(c), context: { project } },
      );
      return c.json(
        listAnswer(
          'compute#operationList',
          regionalCollectionName({ project, region }, 'operations'),
          state.urls.operations(project, region),
          page,
        ),
      );
    },
  );
}
