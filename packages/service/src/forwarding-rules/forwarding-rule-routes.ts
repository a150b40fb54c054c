import type { Context, Hono } from 'hono';
import { requirePermission } from '../auth/auth.js';
import type { EmulatorEnv, EmulatorState } from '../emulator-state.js';
import { apiCall, type PathTarget, type PermissionRule } from '../http/api-call.js';
import { readJsonBody } from '../http/body.js';
import {
  LIST_PARAMETERS,
  onScopeOf,
  READ_SCOPES,
  REGIONAL,
  regionOf,
  WRITE_PARAMETERS,
  WRITE_SCOPES,
} from '../http/compute-call.js';
import { JSON_CONTENT_TYPE } from '../http/json-content-type.js';
import { type ListEntries, listPageBytes } from '../http/list-page-bytes.js';
import { listParams } from '../http/list-params.js';
import { PageBufferPool } from '../http/page-buffer-pool.js';
import { answeredAsAsked, asksForIndentedJson, jsonAnswer } from '../http/pretty-print.js';
import { queryParam } from '../http/query.js';
import { requestIdParam } from '../http/request-id.js';
import { type ScopeRef, scopedCollectionName, scopedName } from '../names/resource-names.js';
import { OPERATION } from '../operations/operation-answers.js';
import type { ForwardingRuleJson } from './forwarding-rule.js';
import { FORWARDING_RULE, FORWARDING_RULE_LIST } from './forwarding-rule-answers.js';
import { ruleIndentedListEntryBytes, ruleListEntryBytes } from './forwarding-rule-collection.js';
import type { SetLabelsRequestName } from './forwarding-rule-update.js';
import { type ForwardingRules, ruleNotFound } from './forwarding-rules.js';
import { requireReferencePermissions } from './reference-permissions.js';

/**
 * What the forwarding-rule routes need to know of the scope they serve: the same routes serve
 * regional rules (`projects/p/regions/r/forwardingRules`) and global ones
 * (`projects/p/global/forwardingRules`, `global-forwarding-rules/`), which differ only in these.
 *
 * @example
 * ```ts
 * forwardingRuleRoutes(app, state, REGIONAL_RULES);
 * ```
 */
export interface RuleRoutesScope {
  /** The route path of the scope, without the collection (`…/regions/:region`, `…/global`). */
  readonly path: string;
  /**
   * The API's name of the collection (`compute.forwardingRules`, `compute.globalForwardingRules`):
   * the prefix of its methods in the request log and fault rules, and of its IAM permissions.
   */
  readonly resource: string;
  /** The scope a request's path names. */
  scopeOf(c: Context): ScopeRef;
  /** The domain module of the scope's rules. */
  rules(state: EmulatorState): ForwardingRules;
  /** The message a setLabels body is, as errors name it. */
  readonly setLabelsRequest: SetLabelsRequestName;
}

/**
 * The regional rules' scope.
 *
 * @example
 * ```ts
 * REGIONAL_RULES.scopeOf(c); // { project, region } of the path
 * ```
 */
export const REGIONAL_RULES: RuleRoutesScope = {
  path: REGIONAL,
  resource: 'compute.forwardingRules',
  scopeOf: regionOf,
  rules: (state) => state.forwardingRules,
  setLabelsRequest: 'RegionSetLabelsRequest',
};

/**
 * `permission` on the forwarding rule the path names (`…/forwardingRules/{name}`).
 *
 * @example
 * ```ts
 * onScopedRule(scope, 'compute.globalForwardingRules.delete');
 * ```
 */
export function onScopedRule(scope: RuleRoutesScope, name: string): PermissionRule {
  return {
    name,
    on: (c) => {
      const where = scope.scopeOf(c);
      return {
        project: where.project,
        resource: scopedName(where, 'forwardingRules', c.req.param('name')!),
      };
    },
  };
}

/**
 * `target` of a call on the forwarding rule the path names, in the scope's words when missing.
 *
 * @example
 * ```ts
 * apiCall(state, { method, scopes, target: scopedRuleTarget(scope) });
 * ```
 */
export function scopedRuleTarget(scope: RuleRoutesScope): (c: Context) => PathTarget {
  return (c) => {
    const name = c.req.param('name')!;
    return { names: [name], missing: () => ruleNotFound(scope.scopeOf(c), name) };
  };
}

/** A list page's rules, each written from its cached entry in the form the call asks for. */
const RULE_ENTRIES: ListEntries<ForwardingRuleJson> = {
  compact: ruleListEntryBytes,
  indented: ruleIndentedListEntryBytes,
};

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
    apiCall(state, {
      method: `${resource}.insert`,
      scopes: WRITE_SCOPES,
      parameters: WRITE_PARAMETERS,
      answer: OPERATION,
    }),
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
      const earlier = await rules.replayOf(where, requestId);
      if (earlier) return jsonAnswer(c, earlier); // a retry: the original operation, nothing created
      if (typeof body === 'object' && body !== null) {
        requireReferencePermissions(principal, project, body as Record<string, unknown>);
      }
      // The store decides between concurrent inserts of one name or requestId (one rule, the
      // others 409 or the original operation), and answers once the write committed.
      return jsonAnswer(
        c,
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
      permission: onScopeOf(scope.scopeOf, `${resource}.list`),
      parameters: LIST_PARAMETERS,
      answer: FORWARDING_RULE_LIST,
    }),
    async (c) => {
      const where = scope.scopeOf(c);
      const { project, region } = where;
      const page = await rules.list(where, { ...listParams(c), context: { project } });
      const body = listPageBytes(
        'compute#forwardingRuleList',
        scopedCollectionName(where, 'forwardingRules'),
        state.urls.forwardingRules(project, region),
        page,
        RULE_ENTRIES,
        {
          // Written indented here, from each rule's cached entry, not indented afterwards.
          indent: asksForIndentedJson(c),
          // On a Node socket (@hono/node-server's bindings), the buffer returns when the answer is sent.
          allocate: (length) =>
            pageBuffers.take(
              length,
              (c.env as { outgoing?: OutgoingBinding } | undefined)?.outgoing,
            ),
        },
      );
      return answeredAsAsked(c.body(body, 200, { 'content-type': JSON_CONTENT_TYPE }));
    },
  );

  app.get(
    `${path}/forwardingRules/:name`,
    apiCall(state, {
      method: `${resource}.get`,
      scopes: READ_SCOPES,
      permission: onScopedRule(scope, `${resource}.get`),
      target,
      answer: FORWARDING_RULE,
    }),
    async (c) => jsonAnswer(c, await rules.get(scope.scopeOf(c), c.req.param('name'))),
  );

  app.delete(
    `${path}/forwardingRules/:name`,
    apiCall(state, {
      method: `${resource}.delete`,
      scopes: WRITE_SCOPES,
      permission: onScopedRule(scope, `${resource}.delete`),
      target,
      parameters: WRITE_PARAMETERS,
      answer: OPERATION,
    }),
    async (c) => {
      const requestId = requestIdParam(queryParam(c, 'requestId'));
      const where = scope.scopeOf(c);
      return jsonAnswer(c, await rules.delete(where, c.req.param('name'), c.var.caller, requestId));
    },
  );
}
