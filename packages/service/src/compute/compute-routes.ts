import type { Context, Hono } from 'hono';
import { requirePermission } from '../auth/auth.js';
import type { EmulatorEnv, EmulatorState } from '../emulator-state.js';
import { readJsonBody } from '../http/body.js';
import { JSON_CONTENT_TYPE } from '../http/json-content-type.js';
import {
  beginCall,
  beginRuleCall,
  listAnswer,
  listQuery,
  READ_SCOPES,
  WRITE_SCOPES,
} from './api-call.js';
import { ruleJsonBytes } from './forwarding-rule-collection.js';
import { resourceName } from './forwarding-rules.js';
import { listPageBytes } from './list-page-bytes.js';
import { PageBufferPool } from './page-buffer-pool.js';
import { requireReferencePermissions } from './reference-permissions.js';
import { requestIdParam } from './request-id.js';

const REGIONAL = '/compute/v1/projects/:project/regions/:region';

/** @hono/node-server's response binding (`c.env.outgoing`), as far as the buffer pool needs it. */
type OutgoingBinding = Parameters<PageBufferPool['take']>[1];

/** Compute Engine's regional forwarding rules and operations, under `/compute/v1`. */
export function computeRoutes(app: Hono<EmulatorEnv>, state: EmulatorState): void {
  const pageBuffers = new PageBufferPool();
  const begin = (c: Context<EmulatorEnv>, method: string, scopes: readonly string[]) =>
    beginCall(c, state, method, scopes);
  const where = (c: Context<EmulatorEnv>) => ({
    project: c.req.param('project')!,
    region: c.req.param('region')!,
  });
  /** Starts a call on a regional collection and checks `permission` on the region. */
  const regional = (
    c: Context<EmulatorEnv>,
    method: string,
    scopes: readonly string[],
    permission: string,
  ) => {
    const principal = begin(c, method, scopes);
    const { project, region } = where(c);
    requirePermission(principal, project, permission, `projects/${project}/regions/${region}`);
    return { principal, project, region };
  };

  app.post(`${REGIONAL}/forwardingRules`, async (c) => {
    const principal = begin(c, 'compute.forwardingRules.insert', WRITE_SCOPES);
    const { project, region } = where(c);
    const requestId = requestIdParam(c.req.url);
    const body = await readJsonBody(c.req.raw, state.bodyLimit);
    const name =
      typeof (body as { name?: unknown } | undefined)?.name === 'string'
        ? (body as { name: string }).name
        : '';
    requirePermission(
      principal,
      project,
      'compute.forwardingRules.create',
      resourceName(project, region, name),
    );
    const earlier = requestId
      ? await state.operations.byRequestId({ project, region }, requestId)
      : undefined;
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
  });

  app.get(`${REGIONAL}/forwardingRules`, async (c) => {
    const { project, region } = regional(
      c,
      'compute.forwardingRules.list',
      READ_SCOPES,
      'compute.forwardingRules.list',
    );
    const query = listQuery(c.req.url);
    const page = await state.forwardingRules.list(
      { project, region },
      { ...query, context: { project } },
    );
    const body = listPageBytes(
      'compute#forwardingRuleList',
      `projects/${project}/regions/${region}/forwardingRules`,
      state.urls.forwardingRules(project, region),
      page,
      ruleJsonBytes,
      // On a Node socket (@hono/node-server's bindings), the buffer returns when the answer is sent.
      (length) =>
        pageBuffers.take(length, (c.env as { outgoing?: OutgoingBinding } | undefined)?.outgoing),
    );
    return c.body(body, 200, { 'content-type': JSON_CONTENT_TYPE });
  });

  app.get(`${REGIONAL}/forwardingRules/:name`, async (c) => {
    const { project, region, name } = beginRuleCall(
      c,
      state,
      'compute.forwardingRules.get',
      READ_SCOPES,
      'compute.forwardingRules.get',
    );
    return c.json(await state.forwardingRules.get({ project, region }, name));
  });

  app.delete(`${REGIONAL}/forwardingRules/:name`, async (c) => {
    const { principal, project, region, name } = beginRuleCall(
      c,
      state,
      'compute.forwardingRules.delete',
      WRITE_SCOPES,
      'compute.forwardingRules.delete',
    );
    return c.json(await state.forwardingRules.delete({ project, region }, name, principal));
  });

  app.get(`${REGIONAL}/operations/:operation`, async (c) => {
    const { project, region } = regional(
      c,
      'compute.regionOperations.get',
      READ_SCOPES,
      'compute.regionOperations.get',
    );
    // Hono answers HEAD with this GET handler; a HEAD reads nothing, so it is no poll.
    const name = c.req.param('operation');
    if (c.req.method === 'HEAD')
      return c.json(await state.operations.peek({ project, region }, name));
    return c.json(await state.operations.get({ project, region }, name));
  });

  app.post(`${REGIONAL}/operations/:operation/wait`, async (c) => {
    const { project, region } = regional(
      c,
      'compute.regionOperations.wait',
      READ_SCOPES,
      'compute.regionOperations.get',
    );
    await readJsonBody(c.req.raw, state.bodyLimit); // the Node client sends the two bytes ""
    return c.json(await state.operations.wait({ project, region }, c.req.param('operation')));
  });

  app.delete(`${REGIONAL}/operations/:operation`, async (c) => {
    const { project, region } = regional(
      c,
      'compute.regionOperations.delete',
      WRITE_SCOPES,
      'compute.regionOperations.delete',
    );
    await state.operations.delete({ project, region }, c.req.param('operation'));
    return c.json({});
  });

  app.get(`${REGIONAL}/operations`, async (c) => {
    const { project, region } = regional(
      c,
      'compute.regionOperations.list',
      READ_SCOPES,
      'compute.regionOperations.list',
    );
    const query = listQuery(c.req.url);
    const page = await state.operations.page(
      { project, region },
      { ...query, context: { project } },
    );
    return c.json(
      listAnswer(
        'compute#operationList',
        `projects/${project}/regions/${region}/operations`,
        state.urls.operations(project, region),
        page,
      ),
    );
  });
}
