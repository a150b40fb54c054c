// A small AIP-style list server over a fixed dataset in memory, for `listkit conform` tests: it
// pages, filters and orders correctly unless its `bug` switch names one mistake to make.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  compileFieldMask,
  compileFilter,
  inferSchema,
  listResponseType,
  parseOrderBy,
  type ResourceSchema,
} from '@listkit/query';

export type Bug =
  /** Skips one item at every page boundary. */
  | 'skip'
  /** Repeats the last item of the first page on the second. */
  | 'repeat'
  /** Answers every page with the default page size. */
  | 'ignore-page-size'
  /** Accepts a page token after the filter changed. */
  | 'token-ignores-filter'
  /** `tags:x` matches only items whose tags are exactly [x]. */
  | 'has-as-equality'
  /** `desc` terms sort ascending. */
  | 'desc-as-asc'
  /** A last page that is exactly full carries a token to an empty page. */
  | 'empty-last-page'
  /**
   * Leaves out the last item of every page but the last (its token still continues after it):
   * the full listing itself then lacks items (issue 31's server).
   */
  | 'drop-last-of-page'
  /**
   * Pages by offset instead of by the last item returned: a delete before the cursor makes the
   * walk skip an item, an insert before it repeats one.
   */
  | 'offset-paging'
  /** Answers every field whatever `fields` selects (a server without partial responses). */
  | 'fields-ignored'
  /** Applies `fields` to the items only and always leaves the page token out. */
  | 'fields-drops-token'
  /** `skip` counts from the start of the listing even with a page token. */
  | 'skip-ignores-token'
  /** The token after a skipped page points back before the skipped items. */
  | 'skip-not-carried'
  /** A negative `skip` is taken as 0. */
  | 'negative-skip-accepted';

export interface StandIn {
  url: string;
  /** Every request's method, path and query (the method only for writes), in order. */
  requests: string[];
  /** The items served now, in name order (POST adds to them, DELETE removes). */
  items(): Book[];
  close(): Promise<void>;
}

type Book = Record<string, unknown>;

const GENRES = ['fiction', 'poetry', 'history', 'science'];

/** 40 books with varied fields: strings, numbers, booleans, timestamps, a map and a list. */
export const books: Book[] = Array.from({ length: 40 }, (_, i) => ({
  name: `shelves/1/books/b${String(i).padStart(3, '0')}`,
  title: `${['alpha', 'beta', 'gamma', 'delta'][i % 4]} ${i}`,
  pages: 100 + ((i * 37) % 400),
  published: i % 3 !== 0,
  createTime: new Date(Date.UTC(2025, 0, 1) + ((i * 7919) % 97) * 86_400_000 + i).toISOString(),
  labels: { genre: GENRES[i % 4]!, ...(i % 5 === 0 ? { award: 'yes' } : {}) },
  tags: i % 4 === 0 ? ['new'] : i % 4 === 1 ? ['new', 'signed'] : i % 4 === 2 ? ['signed'] : [],
}));

const DEFAULT_PAGE = 50;

/**
 * Serves `books` at `/v1/shelves/1/books` with pageSize/pageToken, filter and orderBy, items in
 * `books`, `fields` (a partial response) and AIP-158's `skip` (relative to the page token); refuses filters matching `refuse` with 400 (to stand for unsupported syntax). Pages
 * are keyset pages: a token holds the last item returned, and the next page starts after it.
 * `POST /v1/shelves/1/books?bookId=ID` creates `shelves/1/books/ID` (its body's fields over a
 * copy of the first book); `GET` and `DELETE /v1/shelves/1/books/ID` read and remove one.
 */
export async function startStandIn(
  options: {
    bug?: Bug;
    refuse?: RegExp;
    refuseStatus?: number;
    refuseMessage?: string;
    hang?: boolean;
    /** Create what a POST asks for, and never answer it. */
    stallCreates?: boolean;
    /** The page size when none is asked (default 50: all 40 books on one page). */
    defaultPageSize?: number;
    /** Serve these items instead of `books` (same schema). */
    data?: Book[];
  } = {},
): Promise<StandIn> {
  const { bug, refuse } = options;
  const requests: string[] = [];
  const schema: ResourceSchema = inferSchema(books, { sampleSize: books.length });
  const seal = (state: object) => {
    const body = Buffer.from(JSON.stringify(state)).toString('base64url');
    const mac = createHash('sha256').update(`secret:${body}`).digest('base64url').slice(0, 8);
    return `${body}.${mac}`;
  };
  const open = (token: string): { o: number; k?: Book; f: string; b: string } | undefined => {
    const [body, mac] = token.split('.');
    if (
      !body ||
      createHash('sha256').update(`secret:${body}`).digest('base64url').slice(0, 8) !== mac
    )
      return undefined;
    return JSON.parse(Buffer.from(body, 'base64url').toString());
  };
  const fail = (res: import('node:http').ServerResponse, message: string, code = 400) => {
    res.writeHead(code, { 'content-type': 'application/json' });
    const status = code === 400 ? 'INVALID_ARGUMENT' : 'INTERNAL';
    res.end(JSON.stringify({ error: { code, status, message } }));
  };

  const data: Book[] = [...(options.data ?? books)];
  const byName = (a: Book, b: Book) =>
    String(a.name) < String(b.name) ? -1 : String(a.name) > String(b.name) ? 1 : 0;
  data.sort(byName);
  const collection = '/v1/shelves/1/books';
  const answer = (res: import('node:http').ServerResponse, code: number, body: unknown) => {
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const notFound = (res: import('node:http').ServerResponse) =>
    answer(res, 404, { error: { code: 404, status: 'NOT_FOUND', message: 'no such book' } });

  const server: Server = createServer((req, res) => {
    const method = req.method ?? 'GET';
    requests.push(method === 'GET' ? (req.url ?? '') : `${method} ${req.url ?? ''}`);
    if (options.hang) return; // never answers
    const url = new URL(req.url ?? '/', 'http://stand-in');
    if (url.pathname.startsWith(`${collection}/`)) {
      const name = `shelves/1/books/${url.pathname.slice(collection.length + 1)}`;
      const at = data.findIndex((b) => b.name === name);
      if (method === 'GET') return at < 0 ? notFound(res) : answer(res, 200, data[at]);
      if (method === 'DELETE') {
        if (at < 0) return notFound(res);
        data.splice(at, 1);
        return answer(res, 200, {});
      }
      res.writeHead(405).end();
      return;
    }
    if (url.pathname === collection && method === 'POST') {
      let text = '';
      req.on('data', (d) => {
        text += d;
      });
      req.on('end', () => {
        const id = url.searchParams.get('bookId') ?? '';
        if (!/^[a-z][-a-z0-9]{0,62}$/.test(id)) return fail(res, 'bookId: a lowercase name');
        const name = `shelves/1/books/${id}`;
        if (data.some((b) => b.name === name)) {
          return answer(res, 409, {
            error: { code: 409, status: 'ALREADY_EXISTS', message: `${name} exists` },
          });
        }
        let body: Book;
        try {
          body = text === '' ? {} : JSON.parse(text);
        } catch {
          return fail(res, 'the body is not JSON');
        }
        const book = { ...books[0], ...body, name };
        data.push(book);
        data.sort(byName);
        if (options.stallCreates) return; // created, never answered
        answer(res, 200, book);
      });
      return;
    }
    if (url.pathname !== collection || method !== 'GET') {
      res.writeHead(404).end();
      return;
    }
    const filter = url.searchParams.get('filter') ?? '';
    const orderBy = url.searchParams.get('orderBy') ?? '';
    const asked = Number(url.searchParams.get('pageSize') ?? 0);
    const defaultSize = options.defaultPageSize ?? DEFAULT_PAGE;
    const size = bug === 'ignore-page-size' || !asked ? defaultSize : Math.min(asked, 100);
    const token = url.searchParams.get('pageToken');
    let offset = 0;
    let last: Book | undefined;
    if (token) {
      const state = open(token);
      if (!state) return fail(res, 'invalid page token');
      if ((state.f !== filter && bug !== 'token-ignores-filter') || state.b !== orderBy)
        return fail(res, 'the page token belongs to another query');
      offset = state.o;
      last = state.k;
    }
    if (refuse?.test(filter))
      return fail(res, options.refuseMessage ?? 'unsupported filter', options.refuseStatus);
    let matching: Book[];
    let compare: (a: Book, b: Book) => number;
    try {
      const compiled = compileFilter<Book>(filter, schema);
      const view = (b: Book) =>
        bug === 'has-as-equality' && filter.includes('tags:')
          ? { ...b, tags: (b.tags as string[]).length === 1 ? b.tags : [] }
          : b;
      const order = parseOrderBy<Book>(
        bug === 'desc-as-asc' ? orderBy.replace(/\s+desc\b/g, '') : orderBy,
        schema,
      );
      // The key breaks ties, so that the order is total and a page can start after an item.
      compare = (a: Book, b: Book) => order.compare(a, b) || byName(a, b);
      matching = data.filter((b) => compiled.matches(view(b))).sort(compare);
    } catch (error) {
      return fail(res, (error as Error).message);
    }
    if (bug !== 'offset-paging' && last !== undefined) {
      // Keyset paging: the page starts after the last item returned, wherever it is now.
      const after = last;
      const start = matching.findIndex((b) => compare(b, after) > 0);
      offset = start < 0 ? matching.length : start;
    }
    const skipText = url.searchParams.get('skip') ?? '0';
    let skip = /^-?\d{1,9}$/.test(skipText) ? Number(skipText) : Number.NaN;
    if (bug === 'negative-skip-accepted' && skip < 0) skip = 0;
    if (!(skip >= 0)) return fail(res, `skip must be a non-negative integer, not "${skipText}"`);
    const unskipped = offset;
    offset = (bug === 'skip-ignores-token' && skip > 0 ? 0 : offset) + skip;
    const items = matching.slice(offset, offset + size);
    let next = offset + size;
    if (bug === 'skip') next += 1;
    if (bug === 'repeat' && offset === 0 && size > 1) next -= 1;
    if (bug === 'skip-not-carried') next = unskipped + size;
    const more =
      next < matching.length ||
      (bug === 'empty-last-page' && next === matching.length && items.length > 0);
    if (bug === 'drop-last-of-page' && more) items.pop();
    let body: Record<string, unknown> = {
      books: items,
      ...(more
        ? { nextPageToken: seal({ o: next, k: matching[next - 1], f: filter, b: orderBy }) }
        : {}),
    };
    const fields = url.searchParams.get('fields') ?? '';
    if (fields !== '' && bug !== 'fields-ignored') {
      try {
        const mask = compileFieldMask(fields, listResponseType(schema, { items: 'books' }));
        const projected = mask.apply(body) as Record<string, unknown>;
        body = bug === 'fields-drops-token' ? { books: projected.books ?? [] } : projected;
      } catch (error) {
        return fail(res, (error as Error).message);
      }
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/shelves/1/books`,
    requests,
    items: () => [...data],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
