import type { Hono } from 'hono';
import type { EmulatorEnv, EmulatorState } from '../emulator-state.js';
import { errors } from '../http/api-error.js';
import { readJsonBody } from '../http/body.js';
import { CONTROL_PREFIX } from './control-routes.js';
import type { EmulatorSnapshots } from './snapshots.js';

/**
 * The control plane's snapshots (under the control guard, like every `/_listkit` route):
 *
 * - `POST /_listkit/snapshots` `{ "name": "seeded" }` — capture the whole state now
 * - `GET  /_listkit/snapshots` — the snapshots kept (`name`, `takenAt`, `bytes`)
 * - `GET  /_listkit/snapshots/{name}` — one as a file (`listkit serve --from-snapshot FILE`)
 * - `POST /_listkit/snapshots/{name}:restore` — return to it, atomically
 * - `DELETE /_listkit/snapshots/{name}`
 *
 * @example
 * ```ts
 * snapshotRoutes(app, state, new EmulatorSnapshots(state));
 * ```
 */
export function snapshotRoutes(
  app: Hono<EmulatorEnv>,
  state: EmulatorState,
  snapshots: EmulatorSnapshots,
): void {
  const path = `${CONTROL_PREFIX}/snapshots`;
  app.get(path, async (c) => c.json({ snapshots: await snapshots.list() }));
  app.post(path, async (c) => {
    const body = await readJsonBody(c.req.raw, 'snapshot', state.bodyLimit);
    const name = (body as { name?: unknown } | undefined)?.name;
    if (typeof name !== 'string') throw errors.badRequest('snapshot: "name" is required (text)');
    return c.json(await snapshots.take(name));
  });
  app.get(`${path}/:name`, async (c) =>
    c.body(await snapshots.export(c.req.param('name')), 200, {
      'content-type': 'application/json; charset=UTF-8',
    }),
  );
  app.delete(`${path}/:name`, async (c) => {
    await snapshots.delete(c.req.param('name'));
    return c.json({ deleted: c.req.param('name') });
  });
  // `{name}:restore`: the verb after the last ':', as Google's custom methods are written.
  app.post(`${path}/:target`, async (c) => {
    const target = c.req.param('target');
    const at = target.lastIndexOf(':');
    if (at < 0 || target.slice(at + 1) !== 'restore') {
      throw errors.notFound(`No control route POST ${path}/${target.slice(0, 80)}`);
    }
    return c.json({ restored: await snapshots.restore(target.slice(0, at)) });
  });
}
