import { type Context, Hono, type MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { controlGuard } from './control/control-guard.js';
import { CONTROL_PREFIX, controlRoutes } from './control/control-routes.js';
import { snapshotRoutes } from './control/snapshot-routes.js';
import type { EmulatorSnapshots } from './control/snapshots.js';
import type { EmulatorEnv, EmulatorState } from './emulator-state.js';
import { forwardingRuleRoutes } from './forwarding-rules/forwarding-rule-routes.js';
import {
  aggregatedRuleRoutes,
  forwardingRuleUpdateRoutes,
} from './forwarding-rules/forwarding-rule-update-routes.js';
import { globalForwardingRuleRoutes } from './global-forwarding-rules/global-forwarding-rule-routes.js';
import { ApiError } from './http/api-error.js';
import { isGoogleApiPath } from './http/api-paths.js';
import { type CompressionOptions, gzipResponses } from './http/compression.js';
import { apiErrorOf } from './http/error-answer.js';
import { hostAllowed } from './http/host-check.js';
import { jsonContentType } from './http/json-content-type.js';
import { computePathSegments } from './http/path-segments.js';
import { jsonAnswer, prettyPrintAnswers } from './http/pretty-print.js';
import type { RequestRecord } from './http/request-log.js';
import { urlLimit } from './http/request-size.js';
import { requestUrl } from './http/request-url.js';
import { operationRoutes } from './operations/operation-routes.js';
import { publisherRoutes } from './orders/publisher-routes.js';

/**
 * What the emulator's app needs besides its state.
 *
 * @example
 * ```ts
 * const config: EmulatorAppConfig = { reset, snapshots, servedPort: () => undefined };
 * ```
 */
export interface EmulatorAppConfig {
  /** The control plane's reset. */
  reset: () => Promise<void>;
  /** The control plane's snapshots (`/_listkit/snapshots`). */
  snapshots: EmulatorSnapshots;
  /** The port being served, once listening (the Host check accepts it). */
  servedPort: () => number | undefined;
  allowedHosts?: readonly string[];
  compression?: CompressionOptions | false;
  log?: (record: RequestRecord) => void;
}

/**
 * The emulator's Hono app: request log, Host check, size and content-type limits, compression,
 * path checks, the one error mapping, then every resource's routes and the control plane.
 *
 * @example
 * ```ts
 * const app = createEmulatorApp(state, { reset, snapshots, servedPort: () => server.port });
 * ```
 */
export function createEmulatorApp(
  state: EmulatorState,
  config: EmulatorAppConfig,
): Hono<EmulatorEnv> {
  const app = new Hono<EmulatorEnv>();
  app.use('*', logRequests(state, config.log));
  app.use('*', checkHost(config));
  app.use('*', urlLimit());
  app.use('*', jsonContentType());
  // The Google API paths gzip only for a User-Agent that says gzip too (userAgentReadsGzip);
  // listkit's own pages and control plane need only Accept-Encoding.
  if (config.compression !== false) {
    app.use('*', gzipResponses(config.compression, isGoogleApiPath));
  }
  // Inside the gzip step: Google API answers are indented unless prettyPrint=false.
  app.use('*', prettyPrintAnswers(isGoogleApiPath));
  // Project and region are checked before any route touches state.
  app.use('/compute/v1/projects/:project/*', computePathSegments());
  app.use('/compute/v1/projects/:project/regions/:region/*', computePathSegments());
  app.use(
    `${CONTROL_PREFIX}/*`,
    controlGuard(CONTROL_PREFIX, () => state.auth),
  );
  app.onError((error, c) =>
    errorAnswer(
      c,
      apiErrorOf(error, c) ??
        new ApiError(500, 'backendError', `Internal error in the emulator: ${error.message}`),
    ),
  );
  app.notFound((c) =>
    errorAnswer(
      c,
      new ApiError(
        404,
        'notFound',
        `The requested URL ${requestUrl(c).pathname} was not found on this server.`,
      ),
    ),
  );
  forwardingRuleRoutes(app, state);
  operationRoutes(app, state);
  forwardingRuleUpdateRoutes(app, state);
  aggregatedRuleRoutes(app, state);
  globalForwardingRuleRoutes(app, state);
  publisherRoutes(app, state);
  controlRoutes(app, state, config.reset);
  snapshotRoutes(app, state, config.snapshots);
  return app;
}

/**
 * An error's answer. On the Google API paths it is written in the form the call asks for, as
 * every method answer is (decision 0097), so the `prettyPrint` middleware does not read it back;
 * elsewhere (the control plane, the playground) compact.
 */
function errorAnswer(c: Context, error: ApiError): Response {
  return isGoogleApiPath(c.req.path)
    ? jsonAnswer(c, error.body(), error.status as ContentfulStatusCode)
    : error.toResponse();
}

/** Records every request (after it is answered) in the request log and hands it to `log`. */
function logRequests(
  state: EmulatorState,
  log: ((record: RequestRecord) => void) | undefined,
): MiddlewareHandler<EmulatorEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const url = requestUrl(c);
    const record: RequestRecord = {
      time: state.clock.iso(),
      method: c.req.method,
      path: url.pathname,
      query: url.search,
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      ...(c.get('apiMethod') ? { apiMethod: c.get('apiMethod') } : {}),
      ...(c.get('principal') ? { principal: c.get('principal') } : {}),
      ...(c.error ? reasonOf(c.error, c) : {}),
    };
    const kept = state.requests.add(record);
    log?.(kept);
  };
}

/** Host headers whose verdict is remembered per served port (clients send one or two). */
const HOST_VERDICTS = 64;

/** 403 for a Host that is not this emulator's (DNS rebinding), once listening or configured. */
function checkHost(config: EmulatorAppConfig): MiddlewareHandler<EmulatorEnv> {
  const allowedHosts = new Set((config.allowedHosts ?? []).map((h) => h.toLowerCase()));
  // The verdict of each Host seen, for the port it was judged on: parsing the Host as a URL on
  // every request cost a list page about 0.01 ms. Bounded; cleared when the port changes.
  const verdicts = new Map<string, boolean>();
  let verdictsPort: number | undefined;
  return async (c, next) => {
    const servedPort = config.servedPort();
    const checked = servedPort !== undefined || config.allowedHosts !== undefined;
    const host = c.req.header('host') ?? requestUrl(c).host;
    if (verdictsPort !== servedPort || verdicts.size >= HOST_VERDICTS) {
      verdicts.clear();
      verdictsPort = servedPort;
    }
    let allowed = verdicts.get(host);
    if (allowed === undefined) {
      allowed = hostAllowed(host, servedPort, allowedHosts);
      verdicts.set(host, allowed);
    }
    if (checked && !allowed) {
      throw new ApiError(
        403,
        'forbidden',
        `Host '${host.slice(0, 100)}' is not an address of this emulator; add it with --allowed-host (allowedHosts) if it is.`,
      );
    }
    return next();
  };
}

/** The request log's `reason` of a failed request (none for an internal error). */
function reasonOf(error: Error, c: Context): { reason?: string } {
  const apiError = apiErrorOf(error, c);
  return apiError ? { reason: apiError.reason } : {};
}
