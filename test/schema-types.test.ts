// Types that follow the schema: checked by `pnpm typecheck` (tsc over test/), where a wrong type
// is a compile error; vitest runs the same file, whose values also hold at run time.
import {
  Collection,
  defineSchema,
  type Infer,
  type ListPage,
  PageTokenCodec,
  type ResourceSchema,
  schemaFromJsonSchema,
  t,
} from '@listkit/query';
import { runListRequest } from '@listkit/query/list-method';
import { listFromSql, type SqlRunner, sqlTable } from '@listkit/query/sql';
import { describe, expect, expectTypeOf, it } from 'vitest';

const schema = defineSchema({
  key: 'name',
  fields: {
    name: t.string(),
    year: t.int64(),
    rating: t.double(),
    inPrint: t.bool(),
    published: t.timestamp(),
    genre: t.enum(['FANTASY', 'MYSTERY']),
    labels: t.map(t.string()),
    authors: t.repeated(t.message({ name: t.string(), born: t.int64() })),
  },
});

type Book = Infer<typeof schema>;
const pageTokens = await PageTokenCodec.create();
const run: SqlRunner = async () => [];

describe('types that follow the schema', () => {
  it('infers the item type from defineSchema: the key required, the rest optional', () => {
    expectTypeOf<Book>().toEqualTypeOf<{
      name: string;
      year?: string | number;
      rating?: number;
      inPrint?: boolean;
      published?: string;
      genre?: 'FANTASY' | 'MYSTERY';
      labels?: Record<string, string>;
      authors?: { name?: string; born?: string | number }[];
    }>();
    expectTypeOf(schema).toEqualTypeOf<ResourceSchema<Book>>();
  });

  it('types a Collection of the schema, its pages and runListRequest', async () => {
    const books = new Collection(schema, { pageTokens });
    expectTypeOf(books).toEqualTypeOf<Collection<Book>>();
    books.put({ name: 'shelves/1/books/1', year: 1965, genre: 'FANTASY' });
    // @ts-expect-error: not a value of the enum
    expect(() => books.put({ name: 'shelves/1/books/2', genre: 'ROMANCE' })).toThrow();
    // @ts-expect-error: the key is required
    expect(() => books.put({ year: 1965 })).toThrow();
    const page = await books.list({ pageSize: 10 });
    expectTypeOf(page).toEqualTypeOf<ListPage<Book>>();
    expect(page.items[0]?.name).toBe('shelves/1/books/1');
    const response = await runListRequest({}, books, { itemsField: 'books' });
    expectTypeOf(response.books).toEqualTypeOf<Book[] | undefined>();
  });

  it('accepts a narrower item type of the caller’s, and refuses an unrelated one', () => {
    interface MyBook {
      name: string;
      year: number;
    }
    expectTypeOf(new Collection<MyBook>(schema, { pageTokens })).toEqualTypeOf<
      Collection<MyBook>
    >();
    // @ts-expect-error: an item type unrelated to the schema's
    new Collection<{ totally: 'unrelated' }>(schema, { pageTokens });
  });

  it('ties listFromSql’s item type to its table', async () => {
    const table = sqlTable(schema, { table: 'books' });
    const page = await listFromSql({ pageSize: 10 }, { table, pageTokens, run });
    expectTypeOf(page).toEqualTypeOf<ListPage<Book>>();
    // @ts-expect-error: an item type unrelated to the table's schema
    await listFromSql<{ totally: 'unrelated' }>({ pageSize: 10 }, { table, pageTokens, run });
  });

  it('leaves a schema built at run time untyped, for the caller to type', () => {
    const fromJson = schemaFromJsonSchema(
      { type: 'object', properties: { name: { type: 'string' } } },
      {
        key: 'name',
      },
    );
    expectTypeOf(new Collection(fromJson, { pageTokens })).toEqualTypeOf<Collection<object>>();
    expectTypeOf(new Collection<{ name: string }>(fromJson, { pageTokens })).toEqualTypeOf<
      Collection<{ name: string }>
    >();
  });

  it('takes an optional nextPageToken as the next pageToken (exactOptionalPropertyTypes)', async () => {
    const books = new Collection(schema, { pageTokens });
    const first = await books.list({ pageSize: 1 });
    await books.list({ pageSize: 1, pageToken: first.nextPageToken });
  });
});
