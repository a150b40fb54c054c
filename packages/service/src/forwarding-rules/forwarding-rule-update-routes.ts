import type { Context, Hono } from 'hono';
import type { EmulatorEnv, EmulatorState } from '../emulator-state.js';
import { apiCall, type CallEnv } from '../http/api-call.js';
import { readJsonBody } from '../http/body.js';
import {
  AGGREGATED,
  onProject,
  onRule,
  READ_SCOPES,
  REGIONAL,
  regionOf,
  ruleTarget,
  WRITE_SCOPES,
} from '../http/compute-call.js';
import { listParams } from '../http/list-params.js';
import { queryParam } from '../http/query.js';
import { requestIdParam } from '../http/request-id.js';
import type { ForwardingRuleJson } from './forwarding-rule.js';
import {
  applyPatch,
  applySetLabels,
  applySetTarget,
  checkPatchedRule,
} from './forwarding-rule-update.js';
import { requireReferencePermissions } from './reference-permissions.js';

/** setLabels, setTarget, patch, and the aggregated list of forwarding rules. */
export function forwardingRuleUpdateRoutes(app: Hono<EmulatorEnv>, state: EmulatorState): void {
  const setLabels = apiCall(state, {
    method: 'compute.forwardingRules.setLabels',
    scopes: WRITE_SCOPES,
    permission: onRule('compute.forwardingRules.setLabels'),
    target: ruleTarget,
  });
  app.post(`${REGIONAL}/forwardingRules/:name/setLabels`, setLabels, async (c) => {
    const { principal, project, region, name } = ruleCall(c);
    const body = await readJsonBody(c.req.raw, '', state.bodyLimit);
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

  const setTarget = apiCall(state, {
    method: 'compute.forwardingRules.setTarget',
    scopes: WRITE_SCOPES,
    permission: onRule('compute.forwardingRules.update'),
    target: ruleTarget,
  });
  app.post(`${REGIONAL}/forwardingRules/:name/setTarget`, setTarget, async (c) => {
    const { principal, project, region, name } = ruleCall(c);
    const requestId = requestIdParam(queryParam(c, 'requestId'));
    const body = await readJsonBody(c.req.raw, '', state.bodyLimit);
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

  const patch = apiCall(state, {
    method: 'compute.forwardingRules.patch',
    scopes: WRITE_SCOPES,
    permission: onRule('compute.forwardingRules.update'),
    target: ruleTarget,
  });
  app.patch(`${REGIONAL}/forwardingRules/:name`, patch, async (c) => {
    const { principal, project, region, name } = ruleCall(c);
    const body = await readJsonBody(c.req.raw, 'resource', state.bodyLimit);
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

  const aggregatedList = apiCall(state, {
    method: 'compute.forwardingRules.aggregatedList',
    scopes: READ_SCOPES,
    permission: onProject('compute.forwardingRules.list'),
  });
  app.get(`${AGGREGATED}/forwardingRules`, aggregatedList, async (c) => {
    const project = c.req.param('project');
    const page = await state.forwardingRules.listAggregated(project, {
      ...listParams(c),
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

/** The caller and the rule a `…/forwardingRules/{name}…` route names. */
function ruleCall(c: Context<CallEnv>) {
  return { principal: c.var.caller, ...regionOf(c), name: c.req.param('name')! };
}
