import { parseDuration } from '@listkit/query';
import type { Hono } from 'hono';
import { CLOCK_MAX_EPOCH_MS, CLOCK_MIN_EPOCH_MS, isClockTime } from '../core/clock.js';
import type { EmulatorEnv, EmulatorState } from '../emulator-state.js';
import { errors } from '../http/api-error.js';
import { readJsonBody } from '../http/body.js';
import { parseFaultRule } from '../http/faults.js';
import { parseOperationPolicy } from '../operations/operation-policy.js';
import { type Seed, seedState } from './seed.js';
import { saveSettings } from './settings.js';

/** A value from a request body, short enough for an error message (strings quoted, cut at 60). */
function shown(value: unknown): string {
  if (typeof value === 'string') return `'${value.length > 60 ? `${value.slice(0, 60)}…` : value}'`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : 'an object';
}

/**
 * The reserved prefix of the emulator's own control plane.
 *
 * @example
 * ```ts
 * await fetch(`${url}${CONTROL_PREFIX}/reset`, { method: 'POST' });
 * ```
 */
export const CONTROL_PREFIX = '/_listkit';

/**
 * The emulator's control plane, for tests and operators (unauthenticated; the emulator listens on
 * loopback unless told otherwise):
 *
 * - `GET  /_listkit/health`
 * - `POST /_listkit/reset` — wipe every store, restore the configured operation policy, and
 *   replay the seed (the clock is left as it is)
 * - `POST /_listkit/seed` — add resources (`{ forwardingRules: [{ project, region, rule }],
 *   globalForwardingRules: [{ project, rule }], orders: [{ packageName, orderId, kind, recurring,
 *   purchaseTime, … }] }`)
 * - `GET  /_listkit/state` — every resource, operation and order (orders with their full state;
 *   a global forwarding rule has no region)
 * - `GET  /_listkit/clock`, `POST /_listkit/clock` — `{ advance: "90s" | advanceMs, set, freeze }`
 * - `GET  /_listkit/operations/policy`, `PUT` — `{ mode: immediate | polls | duration, … }`
 * - `GET  /_listkit/faults`, `POST` (add a rule), `DELETE` (clear)
 * - `GET  /_listkit/requests`, `DELETE` — the ring buffer of recent requests
 */
export function controlRoutes(
  app: Hono<EmulatorEnv>,
  state: EmulatorState,
  reset: () => Promise<void>,
): void {
  const p = CONTROL_PREFIX;
  app.get(`${p}/health`, (c) => c.json({ ok: true }));

  app.post(`${p}/reset`, async (c) => {
    await reset();
    return c.json({ ok: true });
  });

  app.post(`${p}/seed`, async (c) => {
    const body = (await readJsonBody(c.req.raw, 'seed', state.bodyLimit)) as Seed | undefined;
    return c.json({ added: await seedState(state, body ?? {}) });
  });

  app.get(`${p}/state`, async (c) =>
    c.json({
      forwardingRules: await state.forwardingRules.all(),
      operations: await state.operations.all(),
      orders: await state.orders.all(),
    }),
  );

  // One reading, so that now and epochMs always agree.
  const clockJson = () => {
    const epochMs = state.clock.now();
    return { now: new Date(epochMs).toISOString(), epochMs };
  };
  app.get(`${p}/clock`, (c) => c.json(clockJson()));
  app.post(`${p}/clock`, async (c) => {
    const body = ((await readJsonBody(c.req.raw, 'clock', state.bodyLimit)) ?? {}) as Record<
      string,
      unknown
    >;
    // Work out the new time first, so a body with one bad field changes nothing.
    let target = state.clock.now();
    if (body.set !== undefined) {
      const at = typeof body.set === 'string' ? Date.parse(body.set) : Number.NaN;
      if (Number.isNaN(at))
        throw errors.badRequest(`clock.set: ${shown(body.set)} is not a timestamp`);
      target = at;
    }
    if (body.advanceMs !== undefined) {
      if (typeof body.advanceMs !== 'number' || !Number.isFinite(body.advanceMs))
        throw errors.badRequest(`clock.advanceMs: ${shown(body.advanceMs)} is not a number`);
      target += body.advanceMs;
    }
    if (body.advance !== undefined) {
      const d = typeof body.advance === 'string' ? parseDuration(body.advance) : undefined;
      if (!d)
        throw errors.badRequest(
          `clock.advance: ${shown(body.advance)} is not a duration such as 90s`,
        );
      target += d.seconds * 1000 + d.nanos / 1e6;
    }
    if (!isClockTime(target))
      throw errors.badRequest(
        `clock: the result is outside the range the clock can show, ${new Date(CLOCK_MIN_EPOCH_MS).toISOString()} to ${new Date(CLOCK_MAX_EPOCH_MS).toISOString()}`,
      );
    if (body.freeze !== undefined && typeof body.freeze !== 'boolean')
      throw errors.badRequest(`clock.freeze: ${shown(body.freeze)} is not true or false`);
    // Freeze (or thaw) first, then set: a clock set and then frozen could run on for the
    // moment between the two and stop a millisecond past the time asked for.
    if (typeof body.freeze === 'boolean') state.clock.freeze(body.freeze);
    state.clock.set(target);
    await saveSettings(state);
    return c.json(clockJson());
  });

  app.get(`${p}/operations/policy`, (c) => c.json(state.operationPolicy));
  app.put(`${p}/operations/policy`, async (c) => {
    const policy = parseOperationPolicy(await readJsonBody(c.req.raw, 'policy', state.bodyLimit));
    if (typeof policy === 'string') throw errors.badRequest(`operation policy: ${policy}`);
    state.operationPolicy = policy;
    await saveSettings(state);
    return c.json(policy);
  });

  app.get(`${p}/faults`, (c) => c.json({ faults: state.faults.list() }));
  app.post(`${p}/faults`, async (c) => {
    const rule = parseFaultRule(await readJsonBody(c.req.raw, 'fault', state.bodyLimit));
    if (typeof rule === 'string') throw errors.badRequest(`fault: ${rule}`);
    state.faults.add(rule);
    await saveSettings(state);
    return c.json({ faults: state.faults.list() });
  });
  app.delete(`${p}/faults`, async (c) => {
    state.faults.clear();
    await saveSettings(state);
    return c.json({ faults: [] });
  });

  app.get(`${p}/requests`, (c) => c.json({ requests: state.requests.list() }));
  app.delete(`${p}/requests`, (c) => {
    state.requests.clear();
    return c.json({ requests: [] });
  });
}
