import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Env, Hono } from 'hono';

/** Where `listkit serve` serves the playground. */
export const PLAYGROUND_PATH = '/playground';

/**
 * Serves the built playground (`playground/dist`) under `/playground/`: `/playground` redirects to
 * `/playground/`, files are read from `dir` (no `..` escapes; unknown files fall through to the
 * app's 404), precompressed (`.br`/`.gz` by `Accept-Encoding`), hashed assets cached as immutable
 * and the page revalidated (`no-cache`). Returns false, and answers `/playground/` with a hint, when `dir` holds no build.
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
  app.use(`${PLAYGROUND_PATH}/*`, async (c, next) => {
    await next();
    if (c.res.status !== 200 && c.res.status !== 206) return;
    // Vite names files under assets/ by their content hash: they never change. The page itself
    // is revalidated on every load, so a new build is picked up at once.
    const hashed = c.req.path.startsWith(`${PLAYGROUND_PATH}/assets/`);
    c.res.headers.set('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
  });
  app.use(
    `${PLAYGROUND_PATH}/*`,
    serveStatic({
      root: dir,
      // The build writes .br and .gz copies; the one the browser accepts is sent.
      precompressed: true,
      rewriteRequestPath: (path) => path.slice(PLAYGROUND_PATH.length) || '/',
    }),
  );
  return true;
}
