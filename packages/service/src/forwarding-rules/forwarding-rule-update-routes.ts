import type { Context, Hono } from 'hono';
import type { EmulatorEnv, EmulatorState } from '../emulator-state.js';
import { apiCall, type CallEnv } from '../http/api-call.js';
import { readJsonBody } from '../http/body.js';
import {
  AGGREGATED,
  AGGREGATED_LIST_PARAMETERS,
  onProject,
  READ_SCOPES,
  WRITE_PARAMETERS,
  WRITE_SCOPES,
} from '../http/compute-call.js';
import { listParams } from '../http/list-params.js';
import { jsonAnswer } from '../http/pretty-print.js';
import { queryParam } from '../http/query.js';
import { requestIdParam } from '../http/request-id.js';
import { OPERATION } from '../operations/operation-answers.js';
import type { ForwardingRuleJson } from './forwarding-rule.js';
import { FORWARDING_RULE_AGGREGATED_LIST } from './forwarding-rule-answers.js';
import {
  onScopedRule,
  REGIONAL_RULES,
  type RuleRoutesScope,
  scopedRuleTarget,
} from './forwarding-rule-routes.js';
import { applyPatch, applySetLabels, applySetTarget } from './forwarding-rule-update.js';
import { requireReferencePermissions } from './reference-permissions.js';

/**
 * setLabels, setTarget and patch of the forwarding rules of one scope (regional by default, or
 * global).
 */
export function forwardingRuleUpdateRoutes(
  app: Hono<EmulatorEnv>,
  state: EmulatorState,
  scope: RuleRoutesScope = REGIONAL_RULES,
): void {
  const { path, resource } = scope;
  const rules = scope.rules(state);
  const target = scopedRuleTarget(scope);
  const ruleCall = (c: Context<CallEnv>) => ({
    principal: c.var.caller,
    where: scope.scopeOf(c),
    name: c.req.param('name')!,
  });

  const setLabels = apiCall(state, {
    method: `${resource}.setLabels`,
    scopes: WRITE_SCOPES,
    permission: onScopedRule(scope, `${resource}.setLabels`),
    target,
    parameters: WRITE_PARAMETERS,
    answer: OPERATION,
  });
  app.post(`${path}/forwardingRules/:name/setLabels`, setLabels, async (c) => {
    const { principal, where, name } = ruleCall(c);
    const body = await readJsonBody(c.req.raw, '', state.bodyLimit);
    // The write is conditional on the fingerprint read: of concurrent setLabels, one wins.
    // Recorded from the real API: setLabels is already DONE in its first answer.
    return jsonAnswer(
      c,
      await rules.update(
        where,
        name,
        (current) => applySetLabels(current, body, scope.setLabelsRequest),
        { principal, operationType: 'setLabels', policy: { mode: 'duration', ms: 0 } },
      ),
    );
  });

  const setTarget = apiCall(state, {
    method: `${resource}.setTarget`,
    scopes: WRITE_SCOPES,
    permission: onScopedRule(scope, `${resource}.update`),
    target,
    parameters: WRITE_PARAMETERS,
    answer: OPERATION,
  });
  app.post(`${path}/forwardingRules/:name/setTarget`, setTarget, async (c) => {
    const { principal, where, name } = ruleCall(c);
    const { project } = where;
    const requestId = requestIdParam(queryParam(c, 'requestId'));
    const body = await readJsonBody(c.req.raw, '', state.bodyLimit);
    return jsonAnswer(
      c,
      await rules.update(
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
          // The create rules and the clash rule, against the scope as it is in the write.
          check: (changed, sameAddress) => rules.checkChange(where, changed, sameAddress),
        },
      ),
    );
  });

  const patch = apiCall(state, {
    method: `${resource}.patch`,
    scopes: WRITE_SCOPES,
    permission: onScopedRule(scope, `${resource}.update`),
    target,
    parameters: WRITE_PARAMETERS,
    answer: OPERATION,
  });
  app.patch(`${path}/forwardingRules/:name`, patch, async (c) => {
    const { principal, where, name } = ruleCall(c);
    const { project } = where;
    const requestId = requestIdParam(queryParam(c, 'requestId'));
    const body = await readJsonBody(c.req.raw, 'resource', state.bodyLimit);
    return jsonAnswer(
      c,
      await rules.update(
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
          requestId,
          check: (patched, sameAddress) => rules.checkChange(where, patched, sameAddress),
        },
      ),
    );
  });
}

/** The aggregated list of forwarding rules: every region's, and the global ones under `global`. */
export function aggregatedRuleRoutes(app: Hono<EmulatorEnv>, state: EmulatorState): void {
  const aggregatedList = apiCall(state, {
    method: 'compute.forwardingRules.aggregatedList',
    scopes: READ_SCOPES,
    permission: onProject('compute.forwardingRules.list'),
    parameters: AGGREGATED_LIST_PARAMETERS,
    answer: FORWARDING_RULE_AGGREGATED_LIST,
  });
  app.get(`${AGGREGATED}/forwardingRules`, aggregatedList, async (c) => {
    const project = c.req.param('project');
    const page = await state.forwardingRules.listAggregated(project, {
      ...listParams(c),
      context: { project },
    });
    const items: Record<string, { forwardingRules: ForwardingRuleJson[] }> = {};
    for (const rule of page.items) {
      // A global rule has no region: it is listed under `global`, as Compute Engine lists it.
      const key =
        rule.region === undefined ? 'global' : `regions/${String(rule.region).split('/').pop()}`;
      const group = items[key] ?? { forwardingRules: [] };
      group.forwardingRules.push(rule);
      items[key] = group;
    }
    return jsonAnswer(c, {
      kind: 'compute#forwardingRuleAggregatedList',
      id: `projects/${project}/aggregated/forwardingRules`,
      items,
      ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
      selfLink: `${state.urls.project(project)}/aggregated/forwardingRules`,
    });
  });
}
