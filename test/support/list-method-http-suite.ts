// The tests every HTTP books app passes, talking to it over HTTP as a client would: pages walked
// to the end with their tokens and compared with the expectation, and each kind of bad input
// answered in Google's error model (AIP-193) naming the parameter at fault.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKS, expectedRecentNotHistory } from './list-method-books.js';

/** A running app: its base URL (`http://127.0.0.1:port`) and how to stop it. */
export interface RunningApp {
  url: string;
  close(): Promise<void>;
}

interface GoogleErrorBody {
  error: {
    code: number;
    message: string;
    status: string;
    details: { '@type': string; fieldViolations?: { field: string; reason: string }[] }[];
  };
}

export function describeBooksApp(framework: string, start: () => Promise<RunningApp>): void {
  describe(`GET /v1/books on ${framework}`, () => {
    let app: RunningApp;
    beforeAll(async () => {
      app = await start();
    }, 120_000);
    afterAll(async () => {
      await app?.close();
    }, 120_000);

    const get = async (query: Record<string, string>) => {
      const response = await fetch(`${app.url}/v1/books?${new URLSearchParams(query)}`);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    /** Walks every page of a query; returns the names in order and the pages seen. */
    const walk = async (query: Record<string, string>) => {
      const names: string[] = [];
      let pages = 0;
      let token: string | undefined;
      do {
        const { status, body } = await get(token ? { ...query, pageToken: token } : query);
        expect(status, JSON.stringify(body)).toBe(200);
        names.push(...(body.books as { name: string }[]).map((b) => b.name));
        token = body.nextPageToken as string | undefined;
        if (token === undefined) expect(body).not.toHaveProperty('nextPageToken');
        pages++;
      } while (token);
      return { names, pages };
    };

    /** Answers a query expected to be refused; returns its single field violation. */
    const refused = async (query: Record<string, string>) => {
      const { status, body } = await get(query);
      expect(status, JSON.stringify(body)).toBe(400);
      const { error } = body as unknown as GoogleErrorBody;
      expect(error.code).toBe(400);
      expect(error.status).toBe('INVALID_ARGUMENT');
      const badRequest = error.details.find(
        (d) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest',
      );
      expect(
        error.details.some((d) => d['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo'),
      ).toBe(true);
      return badRequest?.fieldViolations?.[0];
    };

    it('walks the pages of a filtered, ordered list to the end', async () => {
      const { names, pages } = await walk({
        filter: 'year >= 1970 AND genre != HISTORY',
        orderBy: 'year desc',
        pageSize: '4',
      });
      expect(names).toEqual(expectedRecentNotHistory());
      expect(pages).toBe(Math.ceil(expectedRecentNotHistory().length / 4));
    });

    it('lists everything in key order with the default page size, snake_case too', async () => {
      expect((await walk({})).names).toEqual(BOOKS.map((b) => b.name));
      expect((await walk({ page_size: '10' })).pages).toBe(6);
    });

    it('coerces a page size above the maximum down (AIP-158)', async () => {
      const { body } = await get({ pageSize: '100000' });
      expect((body.books as unknown[]).length).toBe(50); // the app's maximum
    });

    it('answers a filter that does not parse', async () => {
      expect(await refused({ filter: 'year >= ' })).toMatchObject({ field: 'filter' });
    });

    it('answers a filter naming an unknown field', async () => {
      expect(await refused({ filter: 'nmae = "books/001"' })).toMatchObject({
        field: 'filter',
        reason: 'UNKNOWN_FIELD',
      });
    });

    it('answers a bad orderBy', async () => {
      expect(await refused({ orderBy: 'year sideways' })).toMatchObject({ field: 'orderBy' });
      expect(await refused({ orderBy: 'colour' })).toMatchObject({ field: 'orderBy' });
    });

    it('answers a malformed or tampered page token', async () => {
      expect(await refused({ pageToken: 'not-a-token' })).toMatchObject({ field: 'pageToken' });
      const { body } = await get({ pageSize: '2' });
      const token = body.nextPageToken as string;
      const middle = Math.floor(token.length / 2);
      const flipped = token[middle] === 'A' ? 'B' : 'A';
      const tampered = token.slice(0, middle) + flipped + token.slice(middle + 1);
      expect(await refused({ pageSize: '2', pageToken: tampered })).toMatchObject({
        field: 'pageToken',
      });
    });

    it('answers a page token reused with a different filter', async () => {
      const { body } = await get({ filter: 'year >= 1970', pageSize: '2' });
      expect(
        await refused({
          filter: 'year >= 1971',
          pageSize: '2',
          pageToken: body.nextPageToken as string,
        }),
      ).toMatchObject({ field: 'pageToken', reason: 'PAGE_TOKEN_QUERY_MISMATCH' });
    });

    it('answers a negative or non-integer page size', async () => {
      expect(await refused({ pageSize: '-1' })).toMatchObject({
        field: 'pageSize',
        reason: 'INVALID_PAGE_SIZE',
      });
      expect(await refused({ pageSize: 'ten' })).toMatchObject({ field: 'pageSize' });
    });

    it('answers an unknown or repeated parameter (the apps read strictly)', async () => {
      expect(await refused({ fliter: 'year = 1970' })).toMatchObject({
        field: 'fliter',
        reason: 'UNKNOWN_PARAMETER',
      });
      const response = await fetch(`${app.url}/v1/books?filter=a&filter=b`);
      expect(response.status).toBe(400);
    });
  });
}
