// A tiny Express app serving GET /v1/books with @listkit/query/list-method, tested over HTTP.
import type { AddressInfo } from 'node:net';
import { runListRequest, toGoogleError } from '@listkit/query/list-method';
import express from 'express';
import { bookCollection } from './books.js';
import { describeBooksApp } from './http-suite.js';

describeBooksApp('Express', async () => {
  const books = await bookCollection();
  const app = express();
  app.get('/v1/books', async (req, res) => {
    try {
      res.json(
        await runListRequest(req.query, books, {
          itemsField: 'books',
          defaultPageSize: 10,
          maxPageSize: 50,
          strict: true,
        }),
      );
    } catch (error) {
      const e = toGoogleError(error, { domain: 'library.example.com' });
      res.status(e.httpStatus).json(e.body);
    }
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
});
