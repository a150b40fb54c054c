// A NestJS app serving GET /v1/books from a controller with @listkit/query/list-method, as in
// docs/list-method.md: a real Nest application (platform-express) on 127.0.0.1, tested over HTTP
// by the suite every books app passes. Nest's parameter decorators are TypeScript's legacy
// decorators, hence this folder's own tsconfig.json (experimentalDecorators).
import type { AddressInfo } from 'node:net';
import { ListkitError } from '@listkit/query';
import { ListParameterError, runListRequest, toGoogleError } from '@listkit/query/list-method';
import {
  type ArgumentsHost,
  Catch,
  Controller,
  type ExceptionFilter,
  Get,
  Module,
  Param,
  Query,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Response } from 'express';
import { describe, expect, it } from 'vitest';
import { bookCollection, SHELF_TWO, twoShelves } from '../../support/list-method-books.js';
import { describeBooksApp, type RunningApp } from '../../support/list-method-http-suite.js';

/** Answers listkit's errors in Google's error model; Nest's own errors keep Nest's answer. */
@Catch(ListkitError, ListParameterError)
class GoogleErrorFilter implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost) {
    const e = toGoogleError(error, { domain: 'library.example.com' });
    host.switchToHttp().getResponse<Response>().status(e.httpStatus).json(e.body);
  }
}

/** Starts a Nest app of one module holding `controller`, on a free port of 127.0.0.1. */
async function startNest(controller: new () => object): Promise<RunningApp> {
  @Module({ controllers: [controller] })
  class AppModule {}
  const app = await NestFactory.create(AppModule, { logger: false });
  app.useGlobalFilters(new GoogleErrorFilter());
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
}

describeBooksApp('NestJS', async () => {
  const books = await bookCollection();
  @Controller('v1/books')
  class BooksController {
    @Get()
    list(@Query() query: Record<string, unknown>) {
      return runListRequest(query, books, {
        itemsField: 'books',
        defaultPageSize: 10,
        maxPageSize: 50,
        strict: true,
      });
    }
  }
  return startNest(BooksController);
});

describe('NestJS: one shelf per route, as docs/list-method.md writes it', () => {
  it('lists only the parent of the path, and its tokens only there', async () => {
    const books = await twoShelves();
    @Controller('v1/shelves/:shelf/books')
    class ShelfBooksController {
      @Get()
      list(@Param('shelf') shelf: string, @Query() query: Record<string, unknown>) {
        const parent = `shelves/${shelf}`;
        return runListRequest(query, books, { itemsField: 'books', parent, strict: true });
      }
    }
    const app = await startNest(ShelfBooksController);
    try {
      const names = async (shelf: string, query: Record<string, string> = {}) => {
        const seen: string[] = [];
        let token: string | undefined;
        do {
          const params = new URLSearchParams({ pageSize: '20', ...query });
          if (token) params.set('pageToken', token);
          const response = await fetch(`${app.url}/v1/shelves/${shelf}/books?${params}`);
          const body = (await response.json()) as {
            books: { name: string }[];
            nextPageToken?: string;
          };
          expect(response.status, JSON.stringify(body)).toBe(200);
          seen.push(...body.books.map((b) => b.name));
          token = body.nextPageToken;
        } while (token);
        return seen;
      };
      const two = await names('2');
      expect(two).toEqual(SHELF_TWO.map((b) => b.name).sort());
      expect((await names('1')).some((name) => !name.startsWith('shelves/1/'))).toBe(false);
      // A token of shelf 2 is refused on shelf 1.
      const first = (await (await fetch(`${app.url}/v1/shelves/2/books?pageSize=5`)).json()) as {
        nextPageToken: string;
      };
      const reused = await fetch(
        `${app.url}/v1/shelves/1/books?pageSize=5&pageToken=${encodeURIComponent(first.nextPageToken)}`,
      );
      expect(reused.status).toBe(400);
      // Nest's own errors keep Nest's answer.
      expect((await fetch(`${app.url}/v1/nowhere`)).status).toBe(404);
    } finally {
      await app.close();
    }
  }, 120_000);
});
