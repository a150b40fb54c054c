import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ListkitError } from '../errors.js';
import { compileFilter } from '../filter/compile.js';
import { parseOrderBy } from '../order-by/order-by.js';
import { PageTokenCodec } from '../page-token/page-token-codec.js';
import { defineSchema, t } from '../schema/field-type.js';
import { Collection, type ListRequest } from './collection.js';
import { resourceParent } from './parent-scope.js';

const schema = defineSchema({
  key: 'name',
  fields: { name: t.string(), year: t.int64(), genre: t.enum(['SF', 'CRIME']) },
});

interface Book {
  name: string;
  year?: number;
  genre?: 'SF' | 'CRIME';
}

const pageTokens = await PageTokenCodec.create();

async function listAll(books: Collection<Book>, request: Omit<ListRequest, 'pageSize'>, size = 3) {
  const names: string[] = [];
  let pageToken: string | undefined;
  do {
    const page = await books.list({ ...request, pageSize: size, pageToken });
    names.push(...page.items.map((b) => b.name));
    pageToken = page.nextPageToken;
  } while (pageToken);
  return names;
}

function shelves(count: number, perShelf: number): Book[] {
  const books: Book[] = [];
  for (let s = 1; s <= count; s++) {
    for (let b = 0; b < perShelf; b++) {
      books.push({ name: `shelves/${s}/books/${b}`, year: 1990 + ((b * 7 + s) % 13) });
    }
  }
  return books;
}

describe('resourceParent', () => {
  it.each([
    ['shelves/1/books/b', 'shelves/1'],
    ['publishers/p/shelves/1/books/b', 'publishers/p/shelves/1'],
    ['books/b', ''],
    ['b', ''],
  ])('%s is under %j', (name, parent) => {
    expect(resourceParent(name)).toBe(parent);
  });
});

describe('Collection.list with a parent', () => {
  it('lists one parent only, never another parent’s items, in every ordering', async () => {
    const books = new Collection<Book>(schema, { pageTokens });
    for (const book of shelves(3, 10)) books.put(book);
    books.put({ name: 'shelves/10/books/x', year: 2000 }); // 'shelves/10' starts with 'shelves/1'
    for (const orderBy of ['', 'year', 'year desc', 'name desc']) {
      const one = await listAll(books, { parent: 'shelves/1', orderBy });
      const two = await listAll(books, { parent: 'shelves/2', orderBy });
      expect(one).toHaveLength(10);
      expect(two).toHaveLength(10);
      expect(one.every((n) => n.startsWith('shelves/1/books/'))).toBe(true);
      expect(two.every((n) => n.startsWith('shelves/2/books/'))).toBe(true);
    }
    expect(await listAll(books, { parent: 'shelves/10' })).toEqual(['shelves/10/books/x']);
    expect(await listAll(books, { parent: 'shelves/4' })).toEqual([]);
    expect(await listAll(books, {})).toHaveLength(31);
    expect(await listAll(books, { parent: '' })).toHaveLength(31);
  });

  it('combines the parent with the filter, and binds page tokens to it', async () => {
    const books = new Collection<Book>(schema, { pageTokens });
    for (const book of shelves(2, 20)) books.put(book);
    const request = { parent: 'shelves/2', filter: 'year >= 1995', orderBy: 'year desc' };
    const expected = shelves(2, 20)
      .filter((b) => b.name.startsWith('shelves/2/') && b.year! >= 1995)
      .sort((a, b) => b.year! - a.year! || (a.name < b.name ? -1 : 1))
      .map((b) => b.name);
    expect(await listAll(books, request)).toEqual(expected);
    const first = await books.list({ ...request, pageSize: 2 });
    await expect(
      books.list({ ...request, parent: 'shelves/1', pageSize: 2, pageToken: first.nextPageToken }),
    ).rejects.toMatchObject({ code: 'page_token_query_mismatch' });
  });

  it('seeks the parent’s items instead of scanning the others', () => {
    const books = new Collection<Book>(schema, { pageTokens });
    for (const book of shelves(100, 10)) books.put(book);
    const plan = books.plan({ parent: 'shelves/7', orderBy: 'year', pageSize: 5 });
    expect(plan.access).toBe('index');
    expect(plan.seek).toBe('parent = "shelves/7"');
    expect(plan.candidates).toBe(10);
  });

  it('keeps the parent index up to date on put, replace and delete', async () => {
    const books = new Collection<Book>(schema, { pageTokens });
    for (const book of shelves(2, 3)) books.put(book);
    expect(await listAll(books, { parent: 'shelves/1' })).toHaveLength(3);
    books.delete('shelves/1/books/0');
    books.put({ name: 'shelves/1/books/9', year: 1 });
    books.put({ name: 'shelves/1/books/1', year: 2 });
    expect(await listAll(books, { parent: 'shelves/1', orderBy: 'year' })).toEqual([
      'shelves/1/books/9',
      'shelves/1/books/1',
      'shelves/1/books/2',
    ]);
    books.clear();
    expect(await listAll(books, { parent: 'shelves/1' })).toEqual([]);
  });

  it('reads `-` as any segment (AIP-159)', async () => {
    const books = new Collection<Book>(schema, { pageTokens });
    for (const book of shelves(3, 2)) books.put(book);
    books.put({ name: 'other/1/books/0' });
    expect(await listAll(books, { parent: 'shelves/-' })).toHaveLength(6);
    expect(await listAll(books, { parent: '-/1' })).toEqual([
      'other/1/books/0',
      'shelves/1/books/0',
      'shelves/1/books/1',
    ]);
  });

  it('takes a declared parentOf for keys that are not full resource names', async () => {
    interface Rule {
      name: string;
      region: string;
    }
    const rules = new Collection<Rule>(
      defineSchema({ key: 'name', fields: { name: t.string(), region: t.string() } }),
      { pageTokens, parentOf: (rule) => `projects/p/regions/${rule.region}` },
    );
    rules.put({ name: 'web-1', region: 'east' });
    rules.put({ name: 'web-2', region: 'west' });
    const page = await rules.list({ parent: 'projects/p/regions/west', pageSize: 10 });
    expect(page.items.map((r) => r.name)).toEqual(['web-2']);
  });

  it.each(['shelves//1', '/shelves/1', 'x'.repeat(5000)])(
    'refuses the parent %j',
    async (parent) => {
      const books = new Collection<Book>(schema, { pageTokens });
      const error = await books.list({ parent, pageSize: 1 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ListkitError);
      expect(error).toMatchObject({ input: 'parent', code: 'invalid_parent' });
    },
  );

  it('refuses a parent when the key cannot hold one and no parentOf is given', async () => {
    const numbered = new Collection<{ id: string }>(
      defineSchema({ key: 'id', fields: { id: t.int64() } }),
      { pageTokens },
    );
    await expect(numbered.list({ parent: 'shelves/1', pageSize: 1 })).rejects.toThrow(/parentOf/);
  });

  it('equals filter + scope + sort + slice over random collections', async () => {
    const nameArb = fc
      .tuple(fc.constantFrom('1', '2', '10', '-x'), fc.constantFrom('a', 'b', 'c', 'd', 'e'))
      .map(([s, b]) => `shelves/${s}/books/${b}`);
    const bookArb = fc.record(
      {
        name: nameArb,
        year: fc.integer({ min: 1, max: 4 }),
        genre: fc.constantFrom('SF', 'CRIME'),
      },
      { requiredKeys: ['name'] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(bookArb, { maxLength: 30 }),
        fc.constantFrom('shelves/1', 'shelves/10', 'shelves/-', 'shelves/-x'),
        fc.constantFrom('', 'year >= 2', 'genre = SF'),
        fc.constantFrom('', 'year', 'genre desc, year'),
        fc.integer({ min: 1, max: 4 }),
        async (items, parent, filter, orderBy, size) => {
          const books = new Collection<Book>(schema, { pageTokens });
          for (const item of items) books.put(item as Book);
          const compiled = compileFilter<Book>(filter, schema);
          const order = parseOrderBy<Book>(orderBy, schema);
          const under = (name: string) =>
            parent === 'shelves/-'
              ? /^shelves\/[^/]+\/books\//.test(name)
              : name.startsWith(`${parent}/books/`);
          const expected = books
            .values()
            .filter((b) => under(b.name) && compiled.matches(b))
            .sort(order.compare)
            .map((b) => b.name);
          compiled.dispose();
          expect(await listAll(books, { parent, filter, orderBy }, size)).toEqual(expected);
        },
      ),
      { numRuns: 150 },
    );
  });
});
