// A Connect service (on @connectrpc/connect-node) answering ListBooks with
// @listkit/query/list-method, its listkit schema read from the .proto with schemaFromProto,
// tested with a Connect client over the Connect protocol and over gRPC: pages walked to the end,
// and each bad input a ConnectError with Code.InvalidArgument and a google.rpc.BadRequest detail
// naming the request field.
import { createServer } from 'node:http';
import { createServer as createHttp2Server, type Http2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { create, fromJson, type JsonValue, type MessageInitShape } from '@bufbuild/protobuf';
import { type Client, Code, ConnectError, createClient } from '@connectrpc/connect';
import {
  connectNodeAdapter,
  createConnectTransport,
  createGrpcTransport,
} from '@connectrpc/connect-node';
import type { Collection } from '@listkit/query';
import { readListRequest, toGoogleError } from '@listkit/query/list-method';
import { schemaFromProto } from '@listkit/query/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BadRequestSchema,
  BookSchema,
  ErrorInfoSchema,
  LIBRARY_PROTO,
  LibraryService,
  type ListBooksRequest,
  type ListBooksRequestSchema,
  ListBooksResponseSchema,
} from '../support/library-proto.js';
import {
  BOOKS,
  type Book,
  expectedRecentNotHistory,
  SHELF_TWO,
  twoShelves,
  walkPages,
} from '../support/list-method-books.js';

const schema = schemaFromProto(LIBRARY_PROTO, { message: 'library.v1.Book' });

/** Any error of the list call as a ConnectError: the gRPC code, and the details as messages. */
function toConnectError(error: unknown): ConnectError {
  const e = toGoogleError(error, { fieldNames: 'proto', domain: 'library.example.com' });
  return new ConnectError(
    e.message,
    e.grpcCode as Code,
    undefined,
    e.details.map((detail) =>
      detail['@type'] === 'type.googleapis.com/google.rpc.BadRequest'
        ? { desc: BadRequestSchema, value: { fieldViolations: detail.fieldViolations } }
        : {
            desc: ErrorInfoSchema,
            value: { reason: detail.reason, domain: detail.domain, metadata: detail.metadata },
          },
    ),
  );
}

function libraryHandler(books: Collection<Book>) {
  return connectNodeAdapter({
    routes: (router) =>
      router.service(LibraryService, {
        async listBooks(message: ListBooksRequest) {
          try {
            const request = readListRequest(message, {
              strict: true,
              allow: ['parent'],
              defaultPageSize: 10,
              maxPageSize: 50,
            });
            const page = await books.list({ ...request, parent: message.parent });
            return create(ListBooksResponseSchema, {
              books: page.items.map((book) => fromJson(BookSchema, book as unknown as JsonValue)),
              nextPageToken: page.nextPageToken ?? '',
            });
          } catch (error) {
            throw toConnectError(error);
          }
        },
      }),
  });
}

/** A running server and a client of it, over one protocol. */
interface Running {
  client: Client<typeof LibraryService>;
  close(): Promise<void>;
}

/** The Connect protocol over HTTP/1.1. */
async function overConnect(books: Collection<Book>): Promise<Running> {
  const server = createServer(libraryHandler(books));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  const transport = createConnectTransport({
    baseUrl: `http://127.0.0.1:${port}`,
    httpVersion: '1.1',
  });
  return {
    client: createClient(LibraryService, transport),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** gRPC over HTTP/2 (cleartext): details travel in grpc-status-details-bin. */
async function overGrpc(books: Collection<Book>): Promise<Running> {
  const server = createHttp2Server(libraryHandler(books));
  const sessions = new Set<Http2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  const transport = createGrpcTransport({ baseUrl: `http://127.0.0.1:${port}` });
  return {
    client: createClient(LibraryService, transport),
    close: () => {
      for (const session of sessions) session.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe.each([
  ['the Connect protocol over HTTP/1.1', overConnect],
  ['gRPC over HTTP/2', overGrpc],
])('ListBooks on a Connect service, %s', (_protocol, start) => {
  let running: Running;
  let client: Client<typeof LibraryService>;

  beforeAll(async () => {
    // Two shelves of books: every list below names its parent, and sees only that shelf's.
    running = await start(await twoShelves());
    client = running.client;
  }, 120_000);

  afterAll(async () => {
    await running?.close();
  }, 120_000);

  /** The BadRequest field violation of a refused call. */
  const refused = async (request: MessageInitShape<typeof ListBooksRequestSchema>) => {
    const error = await client.listBooks(request).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConnectError);
    const connectError = error as ConnectError;
    expect(connectError.code).toBe(Code.InvalidArgument);
    expect(connectError.findDetails(ErrorInfoSchema)[0]?.domain).toBe('library.example.com');
    return connectError.findDetails(BadRequestSchema)[0]?.fieldViolations[0];
  };

  it('reads the same schema from the .proto text and from the descriptors', () => {
    expect(schemaFromProto(BookSchema)).toEqual(schema);
  });

  it('walks the pages of a filtered, ordered list to the end', async () => {
    const names: string[] = [];
    let pageToken = '';
    let pages = 0;
    do {
      const response = await client.listBooks({
        parent: 'shelves/1',
        filter: 'year >= 1970 AND genre != HISTORY',
        orderBy: 'year desc',
        pageSize: 4,
        pageToken,
      });
      names.push(...response.books.map((b) => b.name));
      pageToken = response.nextPageToken;
      pages++;
    } while (pageToken);
    expect(names).toEqual(expectedRecentNotHistory());
    expect(pages).toBe(Math.ceil(names.length / 4));
  });

  it('lists each shelf’s books, all of them and only them (no leak between parents)', async () => {
    const shelf = (parent: string, filter = '') =>
      walkPages((pageToken) => client.listBooks({ parent, filter, pageSize: 9, pageToken }));
    expect(await shelf('shelves/1')).toEqual(BOOKS.map((b) => b.name));
    expect(await shelf('shelves/2')).toEqual(SHELF_TWO.map((b) => b.name));
    const one = await shelf('shelves/1', 'genre = FANTASY');
    expect(one.length).toBeGreaterThan(0);
    expect(one.every((n) => n.startsWith('shelves/1/'))).toBe(true);
    expect(await shelf('shelves/3')).toEqual([]);
    expect(await shelf('shelves/-')).toHaveLength(BOOKS.length + SHELF_TWO.length);
  });

  it('lists everything with the default page size and coerces a large one', async () => {
    expect((await client.listBooks({})).books).toHaveLength(10);
    expect((await client.listBooks({ pageSize: 100_000 })).books).toHaveLength(50);
  });

  it('answers a bad filter, an unknown field and a bad orderBy', async () => {
    expect(await refused({ filter: 'year >= ' })).toMatchObject({ field: 'filter' });
    expect(await refused({ filter: 'nmae = x' })).toMatchObject({
      field: 'filter',
      reason: 'UNKNOWN_FIELD',
    });
    expect(await refused({ orderBy: 'year sideways' })).toMatchObject({ field: 'order_by' });
  });

  it('answers a tampered token and a token reused with another filter', async () => {
    const { nextPageToken } = await client.listBooks({ filter: 'year >= 1970', pageSize: 2 });
    const middle = Math.floor(nextPageToken.length / 2);
    const tampered =
      nextPageToken.slice(0, middle) +
      (nextPageToken[middle] === 'A' ? 'B' : 'A') +
      nextPageToken.slice(middle + 1);
    expect(
      await refused({ filter: 'year >= 1970', pageSize: 2, pageToken: tampered }),
    ).toMatchObject({ field: 'page_token' });
    expect(
      await refused({ filter: 'year >= 1971', pageSize: 2, pageToken: nextPageToken }),
    ).toMatchObject({ field: 'page_token', reason: 'PAGE_TOKEN_QUERY_MISMATCH' });
    expect(
      await refused({ parent: 'shelves/2', filter: 'year >= 1970', pageToken: nextPageToken }),
    ).toMatchObject({ field: 'page_token' });
  });

  it('answers a negative page size', async () => {
    expect(await refused({ pageSize: -1 })).toMatchObject({
      field: 'page_size',
      reason: 'INVALID_PAGE_SIZE',
    });
  });
});
