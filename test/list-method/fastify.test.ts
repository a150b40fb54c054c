// A tiny Fastify app serving GET /v1/books with @listkit/query/list-method, tested over HTTP.
import { runListRequest, toGoogleError } from '@listkit/query/list-method';
import Fastify from 'fastify';
import { bookCollection } from '../support/list-method-books.js';
import { describeBooksApp } from '../support/list-method-http-suite.js';

describeBooksApp('Fastify', async () => {
  const books = await bookCollection();
  const app = Fastify();
  app.get('/v1/books', async (request, reply) => {
    try {
      return await runListRequest(request.query as Record<string, unknown>, books, {
        itemsField: 'books',
        defaultPageSize: 10,
        maxPageSize: 50,
        strict: true,
      });
    } catch (error) {
      const e = toGoogleError(error, { domain: 'library.example.com' });
      return reply.code(e.httpStatus).send(e.body);
    }
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close() };
});
