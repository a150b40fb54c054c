// A tiny Hono app (on @hono/node-server) serving GET /v1/books with @listkit/query/list-method,
// reading the query as URLSearchParams, tested over HTTP.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { runListRequest, toGoogleError } from '@listkit/query/list-method';
import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { bookCollection } from '../support/list-method-books.js';
import { describeBooksApp } from '../support/list-method-http-suite.js';

describeBooksApp('Hono', async () => {
  const books = await bookCollection();
  const app = new Hono();
  app.get('/v1/books', async (c) => {
    const query = new URL(c.req.url).searchParams;
    return c.json(
      await runListRequest(query, books, {
        itemsField: 'books',
        defaultPageSize: 10,
        maxPageSize: 50,
        strict: true,
      }),
    );
  });
  app.onError((error, c) => {
    const e = toGoogleError(error, { domain: 'library.example.com' });
    return c.json(e.body, e.httpStatus as ContentfulStatusCode);
  });
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>(
    (resolve) => {
      const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
        resolve({ server, port: (info as AddressInfo).port }),
      );
    },
  );
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
});
