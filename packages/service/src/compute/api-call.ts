import { type ListPage, resolvePageSize } from '@listkit/query';
import type { Context } from 'hono';
import { type Principal, requirePermission, requireScope } from '../auth/auth.js';
import type { EmulatorEnv, EmulatorState } from '../emulator-state.js';
import { booleanParam, queryParams, uint32Param } from '../http/query.js';
import { resourceName } from './forwarding-rules.js';

/** Scopes of Compute Engine methods that change resources. */
export const WRITE_SCOPES = ['compute', 'cloud-platform'];
/** Scopes of Compute Engine methods that only read. */
export const READ_SCOPES = ['compute.readonly', 'compute', 'cloud-platform'];

/**
 * The start of every API call: name it for the request log, apply injected faults, authenticate
 * (401) and check the scope (403). Returns the caller.
 */
export function beginCall(
  c: Context<EmulatorEnv>,
  state: EmulatorState,
  method: string,
  scopes: readonly string[],
): Principal {
  c.set('apiMethod', method);
  state.faults.check(method);
  const principal = state.authenticate(c.req.raw);
  c.set('principal', principal.identity);
  requireScope(principal, scopes);
  return principal;
}

/**
 * The start of a call on one forwarding rule (`…/forwardingRules/{name}…`): {@link beginCall},
 * then `permission` on `projects/p/regions/r/forwardingRules/name`.
 */
export function beginRuleCall(
  c: Context<EmulatorEnv>,
  state: EmulatorState,
  method: string,
  scopes: readonly string[],
  permission: string,
): { principal: Principal; project: string; region: string; name: string } {
  const principal = beginCall(c, state, method, scopes);
  const project = c.req.param('project')!;
  const region = c.req.param('region')!;
  const name = c.req.param('name')!;
  requirePermission(principal, project, permission, resourceName(project, region, name));
  return { principal, project, region, name };
}

/** The list parameters of a Compute Engine list call, checked. */
export interface ListQuery {
  filter?: string;
  orderBy?: string;
  pageToken?: string;
  pageSize: number;
}

/**
 * Reads `filter`, `orderBy`, `pageToken` and `maxResults` (0..500, default 500; larger values
 * are lowered to 500) with form semantics; `returnPartialSuccess` and `includeAllScopes` are
 * accepted as booleans.
 */
export function listQuery(url: string): ListQuery {
  const params = queryParams(url);
  booleanParam(params, 'returnPartialSuccess'); // nothing here is ever unreachable
  booleanParam(params, 'includeAllScopes');
  return {
    filter: params.get('filter'),
    orderBy: params.get('orderBy'),
    pageToken: params.get('pageToken') || undefined,
    pageSize: resolvePageSize(uint32Param(params, 'maxResults'), { default: 500, max: 500 }),
  };
}

/** A Compute Engine list answer: `items` only when there are some, `nextPageToken` only when more. */
export function listAnswer<T>(kind: string, id: string, selfLink: string, page: ListPage<T>) {
  return {
    kind,
    id,
    ...(page.items.length > 0 ? { items: page.items } : {}),
    ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
    selfLink,
  };
}
