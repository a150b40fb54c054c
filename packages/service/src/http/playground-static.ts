import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Env, Hono } from 'hono';

/** Where `listkit serve` serves the playground. */
export const PLAYGROUND_PATH = '/playground';

/**
 * Serves the built playground (`playground/dist`) under `/playground/`: `/playground` redirects to
 * `/playground/`, files are read from `dir` (no `..` escapes; unknown files fall through to the
 * app's 404). Returns false, and answers `/playground/` with a hint, when `dir` holds no build.
 *
 * @example
 * ```ts
 * mountPlayground(emulator.app, fileURLToPath(new URL('../../../playground/dist', import.meta.url)));
 * ```
 */
export function mountPlayground<E extends Env>(app: Hono<E>, dir: string): boolean {
  app.get(PLAYGROUND_PATH, (c) => c.redirect(`${PLAYGROUND_PATH}/`, 301));
  if (!existsSync(join(dir, 'index.html'))) {
    app.get(`${PLAYGROUND_PATH}/*`, (c) =>
      c.text(`The playground is not built (no ${dir}/index.html): run \`pnpm build\`.\n`, 404),
    );
    return false;
  }
  app.use(
    `${PLAYGROUND_PATH}/*`,
    serveStatic({
      root: dir,
      rewriteRequestPath: (path) => path.slice(PLAYGROUND_PATH.length) || '/',
    }),
  );
  return true;
}
