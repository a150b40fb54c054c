import fc from 'fast-check';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ListkitError, type ListkitErrorCode } from '../errors.js';
import { compileFilter } from '../filter/compile.js';
import { parseOrderBy } from '../order-by/order-by.js';
import { PageTokenCodec } from '../page-token/page-token-codec.js';
import { defineSchema, t } from '../schema/field-type.js';
import { Collection, type ListPage, type ListRequest } from './collection.js';
import { resolvePageSize } from './page-size.js';

const STATES = ['UP', 'DOWN', 'DRAINING'] as const;

// No `orderings`: any ordering of sortable fields is accepted.
const schema = defineSchema({
  key: 'name',
  fields: {
    name: t.string(),
    created: t.timestamp(),
    size: t.int64(),
    state: t.enum(STATES),
    labels: t.map(t.string()),
    description: t.string({ searchable: true }),
  },
});

interface Item {
  name: string;
  created?: string;
  size?: string | number;
  state?: string;
  labels?: Record<string, string>;
  description?: string;
}

// ---------------------------------------------------------------------------------------------
// Generators: few distinct values per field, so that sort fields tie often; fields may be unset
// (and a few hold values that do not parse, which sort as "no value").

const nameArb = fc.string({
  unit: fc.constantFrom('a', 'b', 'c', 'd', 'e', '-', '1', 'é', '😀', '\ue000'),
  minLength: 1,
  maxLength: 4,
});

const createdArb = fc.constantFrom(
  '2024-01-01T00:00:00Z',
  '2023-12-31T19:00:00-05:00', // the same instant as the line above
  '2024-01-01T00:00:00.000000001Z',
  '2024-06-01T12:00:00Z',
  '1970-01-01T00:00:00Z',
  '2025-03-04T05:06:07.5+02:00',
  'not a timestamp',
);

const sizeArb = fc.oneof(
  fc.constantFrom('0', '1', '5', '-3', '9007199254740993', '9007199254740992', 'x'),
  fc.integer({ min: -3, max: 6 }),
);

const stateArb = fc.constantFrom(...STATES, 'BOGUS');

const labelsArb = fc.dictionary(
  fc.constantFrom('env', 'team'),
  fc.constantFrom('prod', 'staging', ''),
  { maxKeys: 2 },
);

const descriptionArb = fc.constantFrom('web server', 'db', '', 'prod web', 'cache');

/** The fields other than the key; each may be absent. */
const bodyArb = fc.record(
  {
    created: createdArb,
    size: sizeArb,
    state: stateArb,
    labels: labelsArb,
    description: descriptionArb,
  },
  { requiredKeys: [] },
);

const itemArb: fc.Arbitrary<Item> = fc
  .tuple(nameArb, bodyArb)
  .map(([name, body]) => ({ name, ...body }));

const itemsArb = (maxLength: number) =>
  fc.uniqueArray(itemArb, { selector: (item) => item.name, maxLength, size: 'max' });

const AIP_FILTERS = [
  'name = a*',
  'name >= "c"',
  'name:b',
  'size > 3',
  'size <= 0',
  'state = UP',
  'state != DOWN',
  'created < 2024-03-01T00:00:00Z',
  'created >= 2024-01-01T00:00:00Z',
  'labels.env = prod',
  'labels:team',
  'NOT labels:env',
  'labels.env:*',
  'web',
  '-web',
  'description:prod',
  'state = UP OR size < 2',
  'size >= 1 AND NOT state = DRAINING',
];

const REGEX_FILTERS = [
  'name eq "a.*"',
  'name ne "[ab].*"',
  'state eq "UP|DOWN"',
  '(size eq "[0-9]")(state ne UP)',
  'labels.env eq prod',
  'description eq ".*web.*"',
];

/** Declared indexes of the indexed collections: a scalar string, an enum and a map. */
const INDEXES = ['name', 'state', 'labels', 'description'];

/** Filters with an equality conjunct that a declared index answers. */
const INDEXED_FILTERS = [
  'state = UP',
  'state = DRAINING AND NOT labels.env = prod',
  'labels.env = prod',
  'labels.env = ""',
  'labels.team = staging AND size > 1',
  'description = db',
  'description = ""',
  'name = ab',
  'state = UP AND labels.env = prod',
  'state = DOWN AND (size < 2 OR labels:team)',
  'labels.team = prod AND description = "prod web"',
];

const filterArb = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom('', '   ') },
  { weight: 3, arbitrary: fc.constantFrom(...INDEXED_FILTERS) },
  { weight: 4, arbitrary: fc.constantFrom(...AIP_FILTERS) },
  { weight: 2, arbitrary: fc.constantFrom(...REGEX_FILTERS) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...AIP_FILTERS),
        fc.constantFrom('AND', 'OR'),
        fc.constantFrom(...AIP_FILTERS),
      )
      .map(([a, op, b]) => `(${a}) ${op} (${b})`),
  },
);

const ORDER_BYS = ['', 'name', 'name desc', 'created desc', 'size, created desc', 'state desc'];
const orderByArb = fc.constantFrom(...ORDER_BYS);

// Small pages half the time, so that listings run to many pages.
const pageSizesArb = fc.array(
  fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 20 })),
  { minLength: 1, maxLength: 8 },
);

// ---------------------------------------------------------------------------------------------

let pageTokens: PageTokenCodec;
beforeAll(async () => {
  pageTokens = await PageTokenCodec.create();
});

/**
 * A collection of the items; `indexed` declares {@link INDEXES}, so filters may seek them. Not
 * validated: the generated items hold values that do not parse on purpose, which the engine must
 * still page consistently (they sort as "no value").
 */
function collectionOf(items: readonly Item[], indexed = false): Collection<Item> {
  const collection = new Collection<Item>(schema, {
    pageTokens,
    indexes: indexed ? INDEXES : [],
    validate: false,
  });
  for (const item of items) collection.put({ ...item });
  return collection;
}

/** Filters everything with the same compiled filter and sorts with the parsed orderBy. */
function reference(items: Iterable<Item>, filter: string, orderBy: string): Item[] {
  const compiled = compileFilter<Item>(filter, schema);
  try {
    const order = parseOrderBy<Item>(orderBy, schema);
    return [...items].filter((item) => compiled.matches(item)).sort(order.compare);
  } finally {
    compiled.dispose();
  }
}

const names = (items: readonly Item[]) => items.map((item) => item.name);

async function codeOf(promise: Promise<unknown>): Promise<ListkitErrorCode> {
  try {
    await promise;
  } catch (e) {
    expect(e).toBeInstanceOf(ListkitError);
    return (e as ListkitError).code;
  }
  throw new Error('expected a rejection, but the promise resolved');
}

/** Lists every page; page i asks for sizes[i % sizes.length] items. */
async function listAll(
  collection: Collection<Item>,
  request: Omit<ListRequest, 'pageSize' | 'pageToken'>,
  sizes: readonly number[],
  between?: (pageIndex: number) => void,
): Promise<{ pages: ListPage<Item>[]; sizes: number[] }> {
  const pages: ListPage<Item>[] = [];
  const asked: number[] = [];
  let pageToken: string | undefined;
  do {
    if (pages.length > 0) between?.(pages.length);
    const pageSize = sizes[pages.length % sizes.length]!;
    const page = await collection.list({ ...request, pageSize, pageToken });
    pages.push(page);
    asked.push(pageSize);
    pageToken = page.nextPageToken;
    if (pages.length > 2000) throw new Error('the listing does not end');
  } while (pageToken !== undefined);
  return { pages, sizes: asked };
}

// ---------------------------------------------------------------------------------------------

describe('Collection.list: paging equals filter + sort + slice', () => {
  it('over random collections, filters, orderBys and page sizes', async () => {
    await fc.assert(
      fc.asyncProperty(
        itemsArb(300),
        filterArb,
        orderByArb,
        pageSizesArb,
        fc.boolean(),
        async (items, filter, orderBy, sizes, indexed) => {
          const collection = collectionOf(items, indexed);
          const expected = reference(items, filter, orderBy);
          const { pages, sizes: asked } = await listAll(collection, { filter, orderBy }, sizes);
          expect(names(pages.flatMap((p) => p.items))).toEqual(names(expected));
          let offset = 0;
          pages.forEach((page, i) => {
            const last = i === pages.length - 1;
            expect(names(page.items), `page ${i}`).toEqual(
              names(expected.slice(offset, offset + asked[i]!)),
            );
            offset += page.items.length;
            expect(page.nextPageToken !== undefined, `token on page ${i}`).toBe(!last);
            if (page.nextPageToken !== undefined) expect(page.nextPageToken).toMatch(/^[\w-]+$/);
            if (expected.length > 0) expect(page.items.length, `page ${i}`).toBeGreaterThan(0);
          });
          if (expected.length === 0) expect(pages).toEqual([{ items: [] }]);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('after replacing and deleting items once the indexes exist', async () => {
    await fc.assert(
      fc.asyncProperty(
        itemsArb(120),
        fc.array(fc.tuple(fc.nat(), fc.option(bodyArb, { nil: undefined })), {
          maxLength: 60,
          size: 'max',
        }),
        filterArb,
        orderByArb,
        pageSizesArb,
        fc.boolean(),
        async (items, edits, filter, orderBy, sizes, indexed) => {
          const collection = collectionOf(items, indexed);
          // Build every ordering's index (and, when indexed, each declared index's tree for
          // each ordering), then change sort and indexed fields (put) and delete.
          for (const o of ORDER_BYS) {
            await collection.list({ orderBy: o, pageSize: 1 });
            for (const f of INDEXED_FILTERS) {
              await collection.list({ orderBy: o, filter: f, pageSize: 1 });
            }
          }
          const live = new Map(items.map((item) => [item.name, item]));
          for (const [at, body] of edits) {
            if (items.length === 0) break;
            const name = items[at % items.length]!.name;
            if (body === undefined) {
              expect(collection.delete(name)?.name).toBe(live.get(name)?.name);
              live.delete(name);
            } else {
              const item = { name, ...body };
              collection.put(item);
              live.set(name, item);
            }
          }
          expect(collection.size).toBe(live.size);
          expect(names(collection.values())).toEqual(names(reference(live.values(), '', '')));
          const expected = reference(live.values(), filter, orderBy);
          const { pages } = await listAll(collection, { filter, orderBy }, sizes);
          expect(names(pages.flatMap((p) => p.items))).toEqual(names(expected));
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('Collection.list: consistent under writes between pages', () => {
  type Write =
    | { kind: 'insert'; item: Item }
    | { kind: 'delete'; at: number }
    | { kind: 'touch'; at: number }
    | { kind: 'relabel'; at: number; labels: Record<string, string>; description: string };
  const writeArb: fc.Arbitrary<Write> = fc.oneof(
    itemArb.map((item) => ({ kind: 'insert' as const, item })),
    fc.nat().map((at) => ({ kind: 'delete' as const, at })),
    fc.nat().map((at) => ({ kind: 'touch' as const, at })),
    // Changes indexed fields that no ordering sorts by: the item moves between index terms.
    fc.tuple(fc.nat(), labelsArb, descriptionArb).map(([at, labels, description]) => ({
      kind: 'relabel' as const,
      at,
      labels,
      description,
    })),
  );

  it('returns every item present throughout exactly once, and none twice', async () => {
    await fc.assert(
      fc.asyncProperty(
        itemsArb(150),
        fc.array(fc.array(writeArb, { maxLength: 4 }), { maxLength: 40, size: 'max' }),
        filterArb,
        orderByArb,
        pageSizesArb,
        fc.boolean(),
        async (items, writesBetweenPages, filter, orderBy, sizes, indexed) => {
          const collection = collectionOf(items, indexed);
          const order = parseOrderBy<Item>(orderBy, schema);
          const compiled = compileFilter<Item>(filter, schema);
          // Names ever used: an insert never reuses one, so it never replaces (or revives) an item.
          const used = new Set(items.map((item) => item.name));
          const removed = new Set<string>();
          const relabelled = new Set<string>();
          let serial = 0;
          const between = (pageIndex: number) => {
            for (const write of writesBetweenPages[pageIndex - 1] ?? []) {
              const keys = collection.values().map((item) => item.name);
              if (write.kind === 'insert') {
                let name = write.item.name;
                while (used.has(name)) name = `${write.item.name}#${serial++}`;
                used.add(name);
                collection.put({ ...write.item, name });
              } else if (keys.length > 0) {
                const name = keys[write.at % keys.length]!;
                if (write.kind === 'delete') {
                  collection.delete(name);
                  removed.add(name);
                } else if (write.kind === 'relabel') {
                  const { labels, description } = write;
                  collection.put({ ...collection.get(name)!, labels, description });
                  relabelled.add(name);
                } else {
                  collection.put({ ...collection.get(name)! }); // same content, new object
                }
              }
            }
          };
          try {
            const { pages } = await listAll(collection, { filter, orderBy }, sizes, between);
            const returned = pages.flatMap((p) => p.items);
            const returnedNames = names(returned);
            expect(new Set(returnedNames).size, 'an item returned twice').toBe(
              returnedNames.length,
            );
            for (const item of returned) expect(compiled.matches(item)).toBe(true);
            // In order across pages: each page starts after the last item of the previous one.
            for (let i = 1; i < returned.length; i++) {
              expect(order.compare(returned[i - 1]!, returned[i]!)).toBeLessThan(0);
            }
            // Present and matching throughout: never deleted nor relabelled (a relabelled item
            // may have stopped matching, or matched only between two pages).
            const throughout = items.filter(
              (item) =>
                !removed.has(item.name) && !relabelled.has(item.name) && compiled.matches(item),
            );
            const seen = new Set(returnedNames);
            expect(
              names(throughout).filter((name) => !seen.has(name)),
              'present throughout but never returned',
            ).toEqual([]);
          } finally {
            compiled.dispose();
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('Collection.list: examples', () => {
  const tenItems = Array.from({ length: 10 }, (_, i) => ({
    name: `projects/p/items/item-${String(i).padStart(2, '0')}`,
    size: String(i),
  }));

  it('omits nextPageToken on an exactly full last page', async () => {
    const collection = collectionOf(tenItems);
    const first = await collection.list({ pageSize: 5 });
    expect(names(first.items)).toEqual(names(tenItems.slice(0, 5)));
    expect(first.nextPageToken).toBeDefined();
    const second = await collection.list({ pageSize: 5, pageToken: first.nextPageToken });
    expect(names(second.items)).toEqual(names(tenItems.slice(5)));
    expect(second.nextPageToken).toBeUndefined();
    const all = await collection.list({ pageSize: 10 });
    expect(all.items).toHaveLength(10);
    expect(all.nextPageToken).toBeUndefined();
  });

  it('omits nextPageToken when the filter leaves exactly a page', async () => {
    const collection = collectionOf([...tenItems, { name: 'zzz', size: '100' }]);
    const page = await collection.list({ filter: 'size < 5', pageSize: 5 });
    expect(page.items).toHaveLength(5);
    expect(page.nextPageToken).toBeUndefined();
  });

  it('answers an empty collection with one empty page', async () => {
    expect(await collectionOf([]).list({ pageSize: 3 })).toEqual({ items: [] });
  });

  it('treats an empty page token as the first page', async () => {
    const collection = collectionOf(tenItems);
    const page = await collection.list({ pageSize: 3, pageToken: '' });
    expect(names(page.items)).toEqual(names(tenItems.slice(0, 3)));
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])(
    'rejects page size %s',
    async (pageSize) => {
      expect(await codeOf(collectionOf(tenItems).list({ pageSize }))).toBe('invalid_page_size');
    },
  );

  it.each<[string, Partial<ListRequest>]>([
    ['another filter', { filter: 'size < 3' }],
    ['no filter', { filter: '' }],
    ['another orderBy', { orderBy: 'name desc' }],
    ['orderBy name (same order, other text)', { orderBy: 'name' }],
    ['another parent', { parent: 'projects/q' }],
    ['another context', { context: { principal: 'bob' } }],
  ])('rejects a token replayed with %s', async (_, change) => {
    const collection = collectionOf(tenItems);
    const base: ListRequest = {
      filter: 'size >= 2',
      pageSize: 2,
      parent: 'projects/p',
      context: { principal: 'alice' },
    };
    const { nextPageToken } = await collection.list(base);
    expect(nextPageToken).toBeDefined();
    expect(await codeOf(collection.list({ ...base, ...change, pageToken: nextPageToken }))).toBe(
      'page_token_query_mismatch',
    );
  });

  it('accepts a token with the same filter written differently', async () => {
    const collection = collectionOf(tenItems);
    const first = await collection.list({ filter: 'size>=2   AND size<8', pageSize: 2 });
    const second = await collection.list({
      filter: 'size >= 2 AND size < 8',
      pageSize: 2,
      pageToken: first.nextPageToken,
    });
    expect(names(second.items)).toEqual(['projects/p/items/item-04', 'projects/p/items/item-05']);
  });

  it('rejects a token of another codec, and a corrupted one', async () => {
    const a = collectionOf(tenItems);
    const other = await PageTokenCodec.create();
    const b = new Collection<Item>(schema, { pageTokens: other });
    const { nextPageToken } = await a.list({ pageSize: 2 });
    expect(await codeOf(b.list({ pageSize: 2, pageToken: nextPageToken }))).toBe(
      'tampered_page_token',
    );
    expect(await codeOf(a.list({ pageSize: 2, pageToken: 'not a token' }))).toBe(
      'malformed_page_token',
    );
  });

  it.each<[string, ListkitErrorCode]>([
    ['nope', 'unknown_field'],
    ['labels', 'unsortable_field'],
    ['name, name', 'duplicate_order_by_field'],
    ['name sideways', 'invalid_order_by'],
  ])('rejects orderBy %j', async (orderBy, code) => {
    expect(await codeOf(collectionOf(tenItems).list({ orderBy, pageSize: 2 }))).toBe(code);
  });

  it('rejects an invalid filter', async () => {
    expect(await codeOf(collectionOf(tenItems).list({ filter: 'size = abc', pageSize: 2 }))).toBe(
      'invalid_value',
    );
  });
});

describe('resolvePageSize', () => {
  const rules = { default: 50, max: 500 };

  it.each<[number | undefined, number]>([
    [undefined, 50],
    [0, 50],
    [1, 1],
    [50, 50],
    [500, 500],
    [501, 500],
    [1_000_000, 500],
  ])('%s → %s', (value, expected) => {
    expect(resolvePageSize(value, rules)).toBe(expected);
  });

  it.each([-1, -500, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('rejects %s', (value) => {
    try {
      resolvePageSize(value, rules);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ListkitError);
      expect((e as ListkitError).code).toBe('invalid_page_size');
    }
  });
});

describe('Collection.list: cost per page', () => {
  let calls = 0;
  const counted = defineSchema({
    key: 'name',
    fields: { name: t.string(), size: t.int64() },
    functions: {
      counted: {
        arity: 1,
        evaluate: () => {
          calls++;
          return true;
        },
      },
    },
  });

  it('tests pageSize + 1 items per page, whatever the collection size and the depth', async () => {
    for (const n of [1_000, 20_000]) {
      const collection = new Collection<Item>(counted, { pageTokens });
      for (let i = 0; i < n; i++) collection.put({ name: `r${String(i).padStart(6, '0')}` });
      const request = { filter: 'counted(name)', orderBy: 'size, name desc' };
      calls = 0;
      const first = await collection.list({ ...request, pageSize: 10 });
      expect(calls, `first page of ${n}`).toBe(11);
      // Go deep with big pages (the page size is not bound into tokens), then measure again.
      let token = first.nextPageToken;
      for (let seen = 10; seen < n / 2; seen += 500) {
        token = (await collection.list({ ...request, pageSize: 500, pageToken: token }))
          .nextPageToken;
      }
      calls = 0;
      const deep = await collection.list({ ...request, pageSize: 10, pageToken: token });
      expect(deep.items).toHaveLength(10);
      expect(calls, `deep page of ${n}`).toBe(11);
    }
  });
});

describe('Collection.copy', () => {
  it('lists as the original, and edits to either leave the other as it was', async () => {
    await fc.assert(
      fc.asyncProperty(
        itemsArb(120),
        fc.array(fc.tuple(fc.nat(), fc.option(bodyArb, { nil: undefined }), fc.boolean()), {
          maxLength: 40,
        }),
        filterArb,
        orderByArb,
        pageSizesArb,
        fc.boolean(),
        async (items, edits, filter, orderBy, sizes, indexed) => {
          const original = collectionOf(items, indexed);
          // Indexes built before the copy are shared by both, copy-on-write.
          for (const o of ORDER_BYS) {
            await original.list({ orderBy: o, pageSize: 1 });
            for (const f of INDEXED_FILTERS)
              await original.list({ orderBy: o, filter: f, pageSize: 1 });
          }
          const copy = original.copy();
          const live = {
            original: new Map(items.map((i) => [i.name, i])),
            copy: new Map(items.map((i) => [i.name, i])),
          };
          for (const [at, body, inCopy] of edits) {
            if (items.length === 0) break;
            const name = items[at % items.length]!.name;
            const [target, kept] = inCopy ? [copy, live.copy] : [original, live.original];
            if (body === undefined) {
              target.delete(name);
              kept.delete(name);
            } else {
              const item = { name, ...body };
              target.put(item);
              kept.set(name, item);
            }
          }
          for (const [collection, kept] of [
            [original, live.original],
            [copy, live.copy],
          ] as const) {
            expect(collection.size).toBe(kept.size);
            const { pages } = await listAll(collection, { filter, orderBy }, sizes);
            expect(names(pages.flatMap((p) => p.items))).toEqual(
              names(reference(kept.values(), filter, orderBy)),
            );
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('Collection: filtered pages seek declared indexes', () => {
  let calls = 0;
  const counted = defineSchema({
    key: 'name',
    fields: { name: t.string(), zone: t.string(), labels: t.map(t.string()) },
    functions: {
      counted: {
        arity: 1,
        evaluate: () => {
          calls++;
          return true;
        },
      },
    },
  });
  type Rule = { name: string; zone: string; labels: Record<string, string> };
  const ENVS = ['prod', 'dev', 'test', 'qa'];
  const rules = (n: number): Rule[] =>
    Array.from({ length: n }, (_, i) => ({
      name: `r${String(i).padStart(6, '0')}`,
      zone: i % 100 === 0 ? 'rare' : 'common',
      labels: { env: ENVS[i % 4]! },
    }));
  const collectionOfRules = (n: number, indexes: string[]) => {
    const collection = new Collection<Rule>(counted, { pageTokens, indexes });
    for (const rule of rules(n)) collection.put(rule);
    return collection;
  };

  it('tests pageSize + 1 items per page through an index, at any selectivity', async () => {
    const collection = collectionOfRules(20_000, ['zone', 'labels']);
    for (const filter of ['labels.env = prod', 'zone = rare', 'zone = common']) {
      const request = { filter: `${filter} AND counted(name)` };
      calls = 0;
      const first = await collection.list({ ...request, pageSize: 10 });
      expect(first.items).toHaveLength(10);
      expect(calls, filter).toBe(11);
      calls = 0;
      const second = await collection.list({
        ...request,
        pageSize: 10,
        pageToken: first.nextPageToken,
      });
      expect(second.items).toHaveLength(10);
      expect(calls, `${filter}, second page`).toBe(11);
    }
  });

  it('explains the choice with plan()', () => {
    const collection = collectionOfRules(1_000, ['zone', 'labels']);
    const seek = collection.plan({ filter: 'labels.env = prod AND zone = rare', pageSize: 5 });
    expect(seek.access).toBe('index');
    expect(seek.index).toBe('zone');
    expect(seek.seek).toBe('zone = "rare"');
    expect(seek.candidates).toBe(10);
    // 1000 × 250/1000 × 10/1000 = 2.5 expected matches: both walks run to their end.
    expect(seek.estimatedVisits).toBe(10);
    expect(seek.considered.map((p) => p.access)).toEqual(['index', 'scan', 'index']);
    expect(String(seek)).toBe(seek.text);
    expect(seek.text).toContain(`seek index 'zone' to zone = "rare"`);
    expect(seek.text).toContain('rejected: scan (1000 visits)');
    expect(seek.text).toContain(`rejected: seek 'labels' to labels.env = "prod" (250 visits)`);
    // No conjunct to seek: an OR, a wildcard, no filter.
    for (const filter of ['labels.env = prod OR zone = rare', 'zone = ra*', '']) {
      const plan = collection.plan({ filter, pageSize: 5 });
      expect(plan.access, filter).toBe('scan');
      expect(plan.considered, filter).toHaveLength(1);
    }
    // Every item holds the value: a seek would visit as many items as the scan.
    expect(collection.plan({ filter: 'zone = common', pageSize: 5 }).access).toBe('index');
    const everyone = collectionOfRules(1, ['zone']); // its one rule is in zone 'rare'
    expect(everyone.plan({ filter: 'zone = rare', pageSize: 20 }).access).toBe('scan');
  });

  it('scans only the run of a prefix the filter requires, in an ascending ordering by it', async () => {
    const collection = collectionOfRules(20_000, []);
    const plan = collection.plan({ filter: 'name = r0001* AND counted(name)', pageSize: 10 });
    expect(plan.access).toBe('range');
    expect(plan.prefix).toBe('r0001');
    expect(plan.text).toContain('starts with "r0001"');
    for (const filter of ['name = *1', 'name = r0001* OR zone = rare']) {
      expect(collection.plan({ filter, pageSize: 10 }).access, filter).toBe('scan');
    }
    expect(
      collection.plan({ filter: 'name = r0001*', orderBy: 'name desc', pageSize: 10 }).access,
    ).toBe('scan');
    // r001000..r001999 match: a page tests its items plus the one after; the last page stops
    // at the first name past the run instead of scanning to the end.
    const request = { filter: 'name = r001* AND counted(name)' };
    calls = 0;
    const first = await collection.list({ ...request, pageSize: 10 });
    expect(first.items[0]?.name).toBe('r001000');
    expect(calls).toBe(11);
    calls = 0;
    const rest = await collection.list({
      ...request,
      pageSize: 1000,
      pageToken: first.nextPageToken,
    });
    expect(rest.items).toHaveLength(990);
    expect(rest.nextPageToken).toBeUndefined();
    expect(calls, 'tests past the run').toBe(990);
  });

  it('rejects indexes on fields that cannot be indexed, naming them', () => {
    const make = (indexes: string[]) => () =>
      new Collection<Rule>(counted, { pageTokens, indexes });
    expect(make(['nope'])).toThrow(/cannot index 'nope'/);
    expect(make(['labels.env'])).toThrow(/cannot index 'labels.env'/);
    expect(make(['toString'])).toThrow(/cannot index 'toString'/);
  });

  it('keeps an index right after clear()', async () => {
    const collection = collectionOfRules(50, ['labels']);
    await collection.list({ filter: 'labels.env = dev', pageSize: 5 });
    collection.clear();
    expect(collection.plan({ filter: 'labels.env = dev', pageSize: 5 }).access).toBe('scan');
    collection.put({ name: 'x', zone: 'z', labels: { env: 'dev' } });
    collection.put({ name: 'y', zone: 'z', labels: { env: 'prod' } });
    const page = await collection.list({ filter: 'labels.env = dev', pageSize: 5 });
    expect(page.items.map((r) => r.name)).toEqual(['x']);
  });
});

describe('Collection: regressions', () => {
  /** Lists at most `cap` pages of one item; the names returned, '…' when the listing runs on. */
  async function pageNames(collection: Collection<{ name: string }>, orderBy: string, cap = 10) {
    const out: string[] = [];
    let pageToken: string | undefined;
    for (let i = 0; i < cap; i++) {
      const page = await collection.list({ orderBy, pageSize: 1, pageToken });
      out.push(...page.items.map((item) => item.name));
      pageToken = page.nextPageToken;
      if (pageToken === undefined) return out;
    }
    return [...out, '…'];
  }

  // A double sort field holding ±Infinity was sealed into the page token as null (JSON), so the
  // next page restarted from the "no value" position and the listing repeated forever.
  it('pages past a -Infinity double sort value', async () => {
    const doubles = defineSchema({ key: 'name', fields: { name: t.string(), ratio: t.double() } });
    const collection = new Collection<{ name: string; ratio: number }>(doubles, { pageTokens });
    collection.put({ name: 'a', ratio: Number.NEGATIVE_INFINITY });
    collection.put({ name: 'b', ratio: 0 });
    expect(await pageNames(collection, 'ratio')).toEqual(['a', 'b']);
  });

  // Same with +Infinity.
  it('pages past a +Infinity double sort value', async () => {
    const doubles = defineSchema({ key: 'name', fields: { name: t.string(), ratio: t.double() } });
    const collection = new Collection<{ name: string; ratio: number }>(doubles, { pageTokens });
    collection.put({ name: 'a', ratio: Number.POSITIVE_INFINITY });
    collection.put({ name: 'b', ratio: Number.POSITIVE_INFINITY });
    expect(await pageNames(collection, 'ratio')).toEqual(['a', 'b']);
  });

  // Items were identified by String(key) in the map but by the key's typed value in the
  // indexes, so an int64 key written two ways ('1', '01') became two items to one and one to the
  // other, and a delete could unlink the wrong index entry.
  it('treats one key value written two ways as one item (int64 key)', async () => {
    const ids = defineSchema({ key: 'id', fields: { id: t.int64(), tag: t.string() } });
    const collection = new Collection<{ id: string; tag: string }>(ids, { pageTokens });
    collection.put({ id: '1', tag: 'A' });
    expect(collection.values()).toHaveLength(1); // builds the default index
    collection.put({ id: '01', tag: 'B' });
    expect(collection.values().map((item) => item.tag)).toEqual(['B']);
    expect(collection.get('001')?.tag).toBe('B');
    collection.delete('1');
    expect(collection.values()).toEqual([]);
    expect(collection.size).toBe(0);
  });

  it('refuses items whose key is missing or of another type', () => {
    const collection = new Collection<{ name?: unknown }>(
      defineSchema({ key: 'name', fields: { name: t.string() } }),
      { pageTokens },
    );
    expect(() => collection.put({ name: 5 })).toThrow(ListkitError);
    expect(() => collection.put({})).toThrow(TypeError);
  });
});

describe('page-token digests', () => {
  it('binds the query once per page: none for a single page, one to open a token and seal the next', async () => {
    const pageTokens = await PageTokenCodec.create();
    const bindQuery = vi.spyOn(pageTokens, 'bindQuery');
    const collection = new Collection<Item>(schema, { pageTokens, validate: false });
    for (const name of ['a', 'b', 'c', 'd', 'e']) collection.put({ name });
    expect((await collection.list({ pageSize: 10 })).items).toHaveLength(5);
    expect(bindQuery).toHaveBeenCalledTimes(0);
    const first = await collection.list({ pageSize: 2, filter: 'name != z' });
    expect(bindQuery).toHaveBeenCalledTimes(1);
    const second = await collection.list({
      pageSize: 2,
      filter: 'name != z',
      pageToken: first.nextPageToken,
    });
    expect(second.items.map((i) => i.name)).toEqual(['c', 'd']);
    expect(second.nextPageToken).toEqual(expect.any(String));
    expect(bindQuery).toHaveBeenCalledTimes(2);
  });
});
