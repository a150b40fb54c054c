import type { Context, Hono } from 'hono';
import { requirePermission } from '../auth/auth.js';
import type { EmulatorEnv, EmulatorState } from '../emulator-state.js';
import { readJsonBody } from '../http/body.js';
import {
  beginCall,
  beginRuleCall,
  listQuery,
  READ_SCOPES,
  runList,
  startRuleOperation,
  WRITE_SCOPES,
} from './api-call.js';
import type { ForwardingRuleJson } from './forwarding-rule.js';
import {
  applyPatch,
  applySetLabels,
  applySetTarget,
  checkPatchedRule,
} from './forwarding-rule-update.js';
import { requireReferencePermissions } from './reference-permissions.js';
import { requestIdParam } from './request-id.js';

const REGIONAL = '/compute/v1/projects/:project/regions/:region';

/** setLabels, setTarget, patch, and the aggregated list of forwarding rules. */
export function forwardingRuleUpdateRoutes(app: Hono<EmulatorEnv>, state: EmulatorState): void {
  const begin = (c: Context<EmulatorEnv>, method: string, scopes: readonly string[]) =>
    beginCall(c, state, method, scopes);

  app.post(`${REGIONAL}/forwardingRules/:name/setLabels`, async (c) => {
    const { principal, project, region, name } = beginRuleCall(
      c,
      state,
      'compute.forwardingRules.setLabels',
      WRITE_SCOPES,
      'compute.forwardingRules.setLabels',
    );
    const body = await readJsonBody(c.req.raw, state.bodyLimit);
    // No await from here on: of concurrent setLabels with one fingerprint, exactly one wins.
    const rule = state.forwardingRules.replace(
      project,
      region,
      applySetLabels(state.forwardingRules.get(project, region, name), body),
    );
    // Recorded from the real API: setLabels is already DONE in its first answer.
    return c.json(
      startRuleOperation(state, { project, region }, 'setLabels', rule, principal, {
        policy: { mode: 'duration', ms: 0 },
      }),
    );
  });

  app.post(`${REGIONAL}/forwardingRules/:name/setTarget`, async (c) => {
    const { principal, project, region, name } = beginRuleCall(
      c,
      state,
      'compute.forwardingRules.setTarget',
      WRITE_SCOPES,
      'compute.forwardingRules.update',
    );
    const requestId = requestIdParam(c.req.url);
    const body = await readJsonBody(c.req.raw, state.bodyLimit);
    // No await from here on: concurrent changes of one rule are decided one at a time.
    const earlier = requestId
      ? state.operations.byRequestId(project, region, requestId)
      : undefined;
    if (earlier) return c.json(earlier); // a retry: the original operation, nothing changed
    const current = state.forwardingRules.get(project, region, name);
    const changed = applySetTarget(current, body, { project, urls: state.urls });
    requireReferencePermissions(principal, project, { target: changed.target });
    checkPatchedRule(changed, {
      project,
      region,
      urls: state.urls,
      existing: state.forwardingRules.inRegion(project, region),
    });
    const rule = state.forwardingRules.replace(project, region, changed);
    return c.json(
      startRuleOperation(state, { project, region }, 'SetTarget', rule, principal, { requestId }),
    );
  });

  app.patch(`${REGIONAL}/forwardingRules/:name`, async (c) => {
    const { principal, project, region, name } = beginRuleCall(
      c,
      state,
      'compute.forwardingRules.patch',
      WRITE_SCOPES,
      'compute.forwardingRules.update',
    );
    const body = await readJsonBody(c.req.raw, state.bodyLimit);
    // No await from here on: of concurrent patches with one fingerprint, exactly one wins.
    const current = state.forwardingRules.get(project, region, name);
    const patched = applyPatch(current, body, { project, urls: state.urls });
    // The only reference a patch may change is the target.
    requireReferencePermissions(principal, project, {
      target: (body as { target?: unknown }).target,
    });
    checkPatchedRule(patched, {
      project,
      region,
      urls: state.urls,
      existing: state.forwardingRules.inRegion(project, region),
    });
    const rule = state.forwardingRules.replace(project, region, patched);
    return c.json(startRuleOperation(state, { project, region }, 'patch', rule, principal));
  });

  app.get('/compute/v1/projects/:project/aggregated/forwardingRules', async (c) => {
    const principal = begin(c, 'compute.forwardingRules.aggregatedList', READ_SCOPES);
    const project = c.req.param('project');
    requirePermission(principal, project, 'compute.forwardingRules.list', `projects/${project}`);
    const query = listQuery(c.req.url);
    const page = await runList(query, () =>
      state.forwardingRules.listAggregated(project, { ...query, context: { project } }),
    );
    const items: Record<string, { forwardingRules: ForwardingRuleJson[] }> = {};
    for (const rule of page.items) {
      const scope = `regions/${String(rule.region).split('/').pop()}`;
      const group = items[scope] ?? { forwardingRules: [] };
      group.forwardingRules.push(rule);
      items[scope] = group;
    }
    return c.json({
      kind: 'compute#forwardingRuleAggregatedList',
      id: `projects/${project}/aggregated/forwardingRules`,
      items,
      ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
      selfLink: `${state.urls.project(project)}/aggregated/forwardingRules`,
    });
  });
}
