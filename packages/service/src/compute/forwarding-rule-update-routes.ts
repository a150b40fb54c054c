import type { Context, Hono } from 'hono';
import { requirePermission } from '../auth/auth.js';
import type { EmulatorEnv, EmulatorState } from '../emulator-state.js';
import { readJsonBody } from '../http/body.js';
import { beginCall, beginRuleCall, listQuery, READ_SCOPES, WRITE_SCOPES } from './api-call.js';
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
    // The write is conditional on the fingerprint read: of concurrent setLabels, one wins.
    // Recorded from the real API: setLabels is already DONE in its first answer.
    return c.json(
      await state.forwardingRules.update(
        { project, region },
        name,
        (current) => applySetLabels(current, body),
        { principal, operationType: 'setLabels', policy: { mode: 'duration', ms: 0 } },
      ),
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
    const where = { project, region };
    return c.json(
      await state.forwardingRules.update(
        where,
        name,
        (current) => {
          const changed = applySetTarget(current, body, { project, urls: state.urls });
          requireReferencePermissions(principal, project, { target: changed.target });
          return changed;
        },
        {
          principal,
          operationType: 'SetTarget',
          requestId,
          // The create rules and the clash rule, against the region as it is in the write.
          check: (changed, sameAddress) =>
            checkPatchedRule(changed, { ...where, urls: state.urls, sameAddress }),
        },
      ),
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
    const where = { project, region };
    return c.json(
      await state.forwardingRules.update(
        where,
        name,
        (current) => {
          const patched = applyPatch(current, body, { project, urls: state.urls });
          // The only reference a patch may change is the target.
          requireReferencePermissions(principal, project, {
            target: (body as { target?: unknown }).target,
          });
          return patched;
        },
        {
          principal,
          operationType: 'patch',
          check: (patched, sameAddress) =>
            checkPatchedRule(patched, { ...where, urls: state.urls, sameAddress }),
        },
      ),
    );
  });

  app.get('/compute/v1/projects/:project/aggregated/forwardingRules', async (c) => {
    const principal = begin(c, 'compute.forwardingRules.aggregatedList', READ_SCOPES);
    const project = c.req.param('project');
    requirePermission(principal, project, 'compute.forwardingRules.list', `projects/${project}`);
    const query = listQuery(c.req.url);
    const page = await state.forwardingRules.listAggregated(project, {
      ...query,
      context: { project },
    });
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
