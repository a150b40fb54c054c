import type { Context, Hono } from 'hono';
import { requireScope } from '../auth/auth.js';
import type { EmulatorEnv, EmulatorState } from '../emulator-state.js';
import { ApiError } from '../http/api-error.js';
import { booleanParam, queryParams } from '../http/query.js';
import { orderResource } from './order.js';

/** The scope of Android Publisher, and the spec's `{scope_prefix}/publisher` alias. */
const SCOPES = ['androidpublisher', 'publisher'];
/** Real clients call `/androidpublisher/v3`; the spec's `/publisher/v3` is served as an alias. */
const ROOTS = ['/androidpublisher/v3', '/publisher/v3'];

const badRequest = (message: string) =>
  new ApiError(400, 'badRequest', message, { status: 'INVALID_ARGUMENT' });

/**
 * Android Publisher orders: `POST …/orders/{orderId}:refund` and `GET …/orders/{orderId}`.
 * The verb follows the last literal `:` of the path; the order id is percent-decoded after the
 * split, so ids holding `:`, `/`, spaces or `+` round-trip (`GPA.1%3A2%2F3%204%2B5:refund`).
 */
export function publisherRoutes(app: Hono<EmulatorEnv>, state: EmulatorState): void {
  for (const root of ROOTS) {
    app.post(`${root}/applications/:packageName/orders/*`, async (c) => {
      const { packageName, orderId, verb } = target(c, root);
      if (verb !== 'refund') {
        throw new ApiError(404, 'notFound', `Unknown method ':${verb ?? ''}' on orders.`, {
          status: 'NOT_FOUND',
        });
      }
      c.set('apiMethod', 'androidpublisher.orders.refund');
      state.faults.check('androidpublisher.orders.refund');
      const principal = state.authenticate(c.req.raw);
      c.set('principal', principal.identity);
      requireScope(principal, SCOPES);
      const revoke = booleanParam(queryParams(c.req.url), 'revoke') ?? false;
      const body = await c.req.raw.arrayBuffer();
      if (body.byteLength > 0) throw badRequest('The request body must be empty.');
      // The store's conditional write decides between concurrent refunds (in any process).
      await state.orders.refund(packageName, orderId, revoke);
      // Refund has no response message: the body is empty, so the answer is 204 No Content.
      return c.body(null, 204);
    });

    app.get(`${root}/applications/:packageName/orders/*`, async (c) => {
      const { packageName, orderId, verb } = target(c, root);
      if (verb !== undefined)
        throw new ApiError(404, 'notFound', `Unknown method ':${verb}' on orders.`, {
          status: 'NOT_FOUND',
        });
      c.set('apiMethod', 'androidpublisher.orders.get');
      state.faults.check('androidpublisher.orders.get');
      const principal = state.authenticate(c.req.raw);
      c.set('principal', principal.identity);
      requireScope(principal, SCOPES);
      return c.json(orderResource(await state.orders.get(packageName, orderId)));
    });
  }
}

/** Package, decoded order id, and the verb after the last literal `:` of the raw path. */
function target(
  c: Context<EmulatorEnv>,
  root: string,
): { packageName: string; orderId: string; verb?: string } {
  const path = new URL(c.req.url).pathname;
  const prefix = `${root}/applications/`;
  const rest = path.slice(prefix.length);
  const slash = rest.indexOf('/orders/');
  const packageName = decode(rest.slice(0, slash));
  const last = rest.slice(slash + '/orders/'.length);
  if (last.includes('/'))
    throw new ApiError(404, 'notFound', `The requested URL ${path} was not found on this server.`);
  const colon = last.lastIndexOf(':');
  const rawId = colon < 0 ? last : last.slice(0, colon);
  const verb = colon < 0 ? undefined : last.slice(colon + 1);
  const orderId = decode(rawId);
  if (!orderId) throw badRequest('The order id is empty.');
  return { packageName, orderId, verb };
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest(`'${segment}' is not a valid percent-encoded path segment.`);
  }
}
