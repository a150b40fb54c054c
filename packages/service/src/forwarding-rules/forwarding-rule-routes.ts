import type { Hono } from 'hono';
import { requirePermission } from '../auth/auth.js';
import type { EmulatorEnv, EmulatorState } from '../emulator-state.js';
import { apiCall } from '../http/api-call.js';
import { readJsonBody } from '../http/body.js';
import {
  onRegion,
  onRule,
  READ_SCOPES,
  REGIONAL,
  regionOf,
  ruleTarget,
  WRITE_SCOPES,
} from '../http/compute-call.js';
import { JSON_CONTENT_TYPE } from '../http/json-content-type.js';
import { listPageBytes } from '../http/list-page-bytes.js';
import { listParams } from '../http/list-params.js';
import { PageBufferPool } from '../http/page-buffer-pool.js';
import { queryParam } from '../http/query.js';
import { requestIdParam } from '../http/request-id.js';
import { regionalCollectionName, regionalName } from '../names/resource-names.js';
import { ruleJsonBytes } from './forwarding-rule-collection.js';
import { requireReferencePermissions } from './reference-permissions.js';

/** @hono/node-server's response binding (`c.env.outgoing`), as far as the buffer pool needs it. */
type OutgoingBinding = Parameters<PageBufferPool['take']>[1];

/** Compute Engine's regional forwarding rules: insert, list, get and delete. */
export function forwardingRuleRoutes(app: Hono<EmulatorEnv>, state: EmulatorState): void {
  const pageBuffers = new PageBufferPool();

  app.post(
    `${REGIONAL}/forwardingRules`,
    apiCall(state, { method: 'compute.forwardingRules.insert', scopes: WRITE_SCOPES }),
    async (c) => {
      const principal = c.var.caller;
      const { project, region } = regionOf(c);
      const requestId = requestIdParam(queryParam(c, 'requestId'));
      const body = await readJsonBody(c.req.raw, 'resource', state.bodyLimit);
      const name =
        typeof (body as { name?: unknown } | undefined)?.name === 'string'
          ? (body as { name: string }).name
          : '';
      // The rule is named in the body: its permission is checked once the body is read.
      requirePermission(
        principal,
        project,
        'compute.forwardingRules.create',
        regionalName({ project, region }, 'forwardingRules', name),
      );
      const earlier = await state.forwardingRules.replayOf({ project, region }, requestId);
      if (earlier) return c.json(earlier); // a retry: the original operation, nothing created
      if (typeof body === 'object' && body !== null) {
        requireReferencePermissions(principal, project, body as Record<string, unknown>);
      }
      // The store decides between concurrent inserts of one name or requestId (one rule, the
      // others 409 or the original operation), and answers once the write committed.
      return c.json(
        await state.forwardingRules.insert({ project, region }, body, {
          principal,
          operationType: 'insert',
          requestId,
        }),
      );
    },
  );

  app.get(
    `${REGIONAL}/forwardingRules`,
    apiCall(state, {
      method: 'compute.forwardingRules.list',
      scopes: READ_SCOPES,
      permission: onRegion('compute.forwardingRules.list'),
    }),
    async (c) => {
      const { project, region } = regionOf(c);
      const page = await state.forwardingRules.list(
        { project, region },
        { ...listParams(c), context: { project } },
      );
      const body = listPageBytes(
        'compute#forwardingRuleList',
        regionalCollectionName({ project, region }, 'forwardingRules'),
        state.urls.forwardingRules(project, region),
        page,
        ruleJsonBytes,
        // On a Node socket (@hono/node-server's bindings), the buffer returns when the answer is sent.
        (length) =>
          pageBuffers.take(length, (c.env as { outgoing?: OutgoingBinding } | undefined)?.outgoing),
      );
      return c.body(body, 200, { 'content-type': JSON_CONTENT_TYPE });
    },
  );

  app.get(
    `${REGIONAL}/forwardingRules/:name`,
    apiCall(state, {
      method: 'compute.forwardingRules.get',
      scopes: READ_SCOPES,
      permission: onRule('compute.forwardingRules.get'),
      target: ruleTarget,
    }),
    async (c) => c.json(await state.forwardingRules.get(regionOf(c), c.req.param('name'))),
  );

  app.delete(
    `${REGIONAL}/forwardingRules/:name`,
    apiCall(state, {
      method: 'compute.forwardingRules.delete',
      scopes: WRITE_SCOPES,
      permission: onRule('compute.forwardingRules.delete'),
      target: ruleTarget,
    }),
    async (c) =>
      c.json(await state.forwardingRules.delete(regionOf(c), c.req.param('name'), c.var.caller)),
  );
}
