import type { Context, Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { EmulatorEnv, EmulatorState } from '../emulator-state.js';
import { apiCall, type PathTarget } from '../http/api-call.js';
import { ApiError } from '../http/api-error.js';
import { EMPTY_ANSWER } from '../http/partial-response.js';
import { jsonAnswer } from '../http/pretty-print.js';
import { booleanParam, queryParam } from '../http/query.js';
import { requestUrl } from '../http/request-url.js';
import { orderResource } from './order.js';
import { ORDER } from './order-answers.js';
import { orderNotFound } from './orders.js';

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
  const refund = apiCall(state, {
    method: 'androidpublisher.orders.refund',
    scopes: SCOPES,
    target: orderPathTarget,
    parameters: ['revoke'],
    answer: EMPTY_ANSWER,
  });
  const get = apiCall(state, {
    method: 'androidpublisher.orders.get',
    scopes: SCOPES,
    target: orderPathTarget,
    answer: ORDER,
  });
  for (const root of ROOTS) {
    const orders = `${root}/applications/:packageName/orders/*`;
    // The order and its verb are read from the path before the call starts: an unknown verb is
    // a 404 whoever calls.
    app.post(orders, orderTarget(root, 'refund'), refund, async (c) => {
      const { packageName, orderId } = c.var.order;
      const revoke = booleanParam(queryParam(c, 'revoke'), 'revoke') ?? false;
      const body = await c.req.raw.arrayBuffer();
      if (body.byteLength > 0) throw badRequest('The request body must be empty.');
      // The store's conditional write decides between concurrent refunds (in any process).
      await state.orders.refund(packageName, orderId, revoke);
      // Refund has no response message: the body is empty, so the answer is 204 No Content.
      return c.body(null, 204);
    });

    app.get(orders, orderTarget(root, undefined), get, async (c) => {
      const { packageName, orderId } = c.var.order;
      return jsonAnswer(c, orderResource(await state.orders.get(packageName, orderId)));
    });
  }
}

/** The Hono variables of an order route: the order its path names. */
type OrderEnv = EmulatorEnv & { Variables: { order: { packageName: string; orderId: string } } };

/** `target` of an order call: the package and order the path names (`orderTarget` read them). */
function orderPathTarget(c: Context): PathTarget {
  const { packageName, orderId } = (c as Context<OrderEnv>).var.order;
  return { names: [packageName, orderId], missing: () => orderNotFound(packageName, orderId) };
}

/** Reads the order a path names, and answers 404 unless its verb is `verb` (none for a get). */
function orderTarget(root: string, verb: string | undefined) {
  return createMiddleware<OrderEnv>(async (c, next) => {
    const { packageName, orderId, verb: given } = target(c, root);
    if (given !== verb) {
      throw new ApiError(404, 'notFound', `Unknown method ':${given ?? ''}' on orders.`, {
        status: 'NOT_FOUND',
      });
    }
    c.set('order', { packageName, orderId });
    await next();
  });
}

/** Package, decoded order id, and the verb after the last literal `:` of the raw path. */
function target(c: Context, root: string): { packageName: string; orderId: string; verb?: string } {
  const path = requestUrl(c).pathname;
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
