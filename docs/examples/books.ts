// The `books.ts` of docs/list-method.md's servers (the same code as the block there), so that
// test/doc-types.test.ts can check each server against it.
import { Collection, defineSchema, PageTokenCodec, t } from '@listkit/query';

export const schema = defineSchema({
  key: 'name',
  fields: { name: t.string(), title: t.string(), year: t.int64() },
});
export const books = new Collection(schema, { pageTokens: await PageTokenCodec.create() });
books.put({ name: 'shelves/1/books/1', title: 'Dune', year: 1965 });
