import type { Hono } from 'hono';
import { requirePermission } from '../auth/auth.js';
import type { EmulatorEnv, EmulatorState } from '../emulator-state.js';
import { apiCall } from '../http/api-call.js';
import { readJsonBody } from '../http/body.js';
import { READ_SCOPES, WRITE_SCOPES } from '../http/compute-call.js';
import { JSON_CONTENT_TYPE } from '../http/json-content-type.js';
import { listPageBytes } from '../http/list-page-bytes.js';
import { listParams } from '../http/list-params.js';
import { PageBufferPool } from '../http/page-buffer-pool.js';
import { queryParam } from '../http/query.js';
import { requestIdParam } from '../http/request-id.js';
import { scopedName, scopeParent } from '../names/resource-names.js';
import { ruleJsonBytes } from './forwarding-rule-collection.js';
import { requireReferencePermissions } from './reference-permissions.js';
import {
  onScope,
  onScopedRule,
  REGIONAL_RULES,
  type RuleRoutesScope,
  scopedRuleTarget,
} from './rule-routes-scope.js';

/** @hono/node-server's response binding (`c.env.outgoing`), as far as the buffer pool needs it. */
type OutgoingBinding = Parameters<PageBufferPool['take']>[1];

/**
 * Compute Engine's forwarding rules of one scope (regional by default, or global): insert, list,
 * get and delete.
 */
export function forwardingRuleRoutes(
  app: Hono<EmulatorEnv>,
  state: EmulatorState,
  scope: RuleRoutesScope = REGIONAL_RULES,
): void {
  const pageBuffers = new PageBufferPool();
  const { path, resource } = scope;
  const rules = scope.rules(state);
  const target = scopedRuleTarget(scope);

  app.post(
    `${path}/forwardingRules`,
    apiCall(state, { method: `${resource}.insert`, scopes: WRITE_SCOPES }),
    async (c) => {
      const principal = c.var.caller;
      const where = scope.scopeOf(c);
      const { project } = where;
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
        `${resource}.create`,
        scopedName(where, 'forwardingRules', name),
      );
      const earlier = requestId ? await state.operations.byRequestId(where, requestId) : undefined;
      if (earlier) return c.json(earlier); // a retry: the original operation, nothing created
      if (typeof body === 'object' && body !== null) {
        requireReferencePermissions(principal, project, body as Record<string, unknown>);
      }
      // The store decides between concurrent inserts of one name or requestId (one rule, the
      // others 409 or the original operation), and answers once the write committed.
      return c.json(
        await rules.insert(where, body, {
          principal,
          operationType: 'insert',
          requestId,
        }),
      );
    },
  );

  app.get(
    `${path}/forwardingRules`,
    apiCall(state, {
      method: `${resource}.list`,
      scopes: READ_SCOPES,
      permission: onScope(scope, `${resource}.list`),
    }),
    async (c) => {
      const where = scope.scopeOf(c);
      const { project, region } = where;
      const page = await rules.list(where, { ...listParams(c), context: { project } });
      const body = listPageBytes(
        'compute#forwardingRuleList',
        `${scopeParent(where)}/forwardingRules`,
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
    `${path}/forwardingRules/:name`,
    apiCall(state, {
      method: `${resource}.get`,
      scopes: READ_SCOPES,
      permission: onScopedRule(scope, `${resource}.get`),
      target,
    }),
    async (c) => c.json(await rules.get(scope.scopeOf(c), c.req.param('name'))),
  );

  app.delete(
    `${path}/forwardingRules/:name`,
    apiCall(state, {
      method: `${resource}.delete`,
      scopes: WRITE_SCOPES,
      permission: onScopedRule(scope, `${resource}.delete`),
      target,
    }),
    async (c) => {
      const requestId = requestIdParam(queryParam(c, 'requestId'));
      const where = scope.scopeOf(c);
      return c.json(await rules.delete(where, c.req.param('name'), c.var.caller, requestId));
    },
  );
}
