// Field names in filters and orderBy: the JSON spelling (publishTime), the proto spelling
// (publish_time) or both, per the schema's `fieldNames`; schemaFromProto defaults to both.
// Through the public API only: filters, orderBy, a list method over a Collection, a SQL plan.
import {
  Collection,
  compileFilter,
  defineSchema,
  type FieldNames,
  ListkitError,
  PageTokenCodec,
  parseOrderBy,
  parseSchemaJson,
  SchemaSourceError,
  t,
} from '@listkit/query';
import { runListRequest } from '@listkit/query/list-method';
import { schemaFromProto } from '@listkit/query/proto';
import { planListQuery, sqlTable } from '@listkit/query/sql';
import { describe, expect, it } from 'vitest';
import { LIBRARY_PROTO } from '../support/library-proto.js';

const BOOK_PROTO = `
syntax = "proto3";
package shelf.v1;
import "google/protobuf/timestamp.proto";
message Author { string display_name = 1; int32 birth_year = 2; }
message Book {
  string name = 1;
  google.protobuf.Timestamp publish_time = 2;
  int32 page_count = 3;
  Author main_author = 4;
  map<string, string> label_set = 5;
  string isbn_13 = 6 [json_name = "isbn"];
}
`;

const proto = (fieldNames?: FieldNames) =>
  schemaFromProto(BOOK_PROTO, { message: 'shelf.v1.Book', ...(fieldNames ? { fieldNames } : {}) });

const books = [
  {
    name: 'shelves/1/books/a',
    publishTime: '2020-01-01T00:00:00Z',
    pageCount: 300,
    mainAuthor: { displayName: 'Le Guin', birthYear: 1929 },
    labelSet: { tone: 'calm' },
    isbn: '111',
  },
  {
    name: 'shelves/1/books/b',
    publishTime: '2021-06-01T00:00:00Z',
    pageCount: 120,
    mainAuthor: { displayName: 'Lem', birthYear: 1921 },
    labelSet: { tone: 'dark' },
    isbn: '222',
  },
  {
    name: 'shelves/1/books/c',
    publishTime: '2019-03-01T00:00:00Z',
    pageCount: 450,
    mainAuthor: { displayName: 'Banks', birthYear: 1954 },
    labelSet: { tone_of_voice: 'dry' },
    isbn: '333',
  },
];

const match = (filter: string, fieldNames?: FieldNames) => {
  const { matches } = compileFilter(filter, proto(fieldNames));
  return books.filter(matches).map((b) => b.name.slice(-1));
};

const order = (orderBy: string, fieldNames?: FieldNames) =>
  [...books].sort(parseOrderBy(orderBy, proto(fieldNames)).compare).map((b) => b.name.slice(-1));

const problem = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ListkitError);
    return (error as ListkitError).message;
  }
  throw new Error('did not throw');
};

describe('schemaFromProto accepts both spellings by default', () => {
  it('filters on proto and JSON names alike, nested ones too', () => {
    expect(match('publish_time > 2019-12-31T00:00:00Z')).toEqual(['a', 'b']);
    expect(match('publishTime > 2019-12-31T00:00:00Z')).toEqual(['a', 'b']);
    expect(match('main_author.birth_year < 1930 AND page_count > 200')).toEqual(['a']);
    expect(match('mainAuthor.birthYear < 1930 AND pageCount > 200')).toEqual(['a']);
    // Mixed in one filter, and mixed within one path.
    expect(match('main_author.birthYear = 1954 OR pageCount = 120')).toEqual(['b', 'c']);
    // A json_name field: its proto name is the declared one, not a snake_case of the JSON name.
    expect(match('isbn_13 = "222"')).toEqual(['b']);
    expect(match('isbn = "222"')).toEqual(['b']);
  });

  it('leaves map keys as written: they are data, not field names', () => {
    expect(match('label_set.tone_of_voice = dry')).toEqual(['c']);
    expect(match('labelSet:toneOfVoice')).toEqual([]);
  });

  it('orders on either spelling, to one canonical (JSON) orderBy', () => {
    expect(order('publish_time desc')).toEqual(['b', 'a', 'c']);
    expect(order('publishTime desc')).toEqual(['b', 'a', 'c']);
    expect(parseOrderBy('main_author.birth_year desc, page_count', proto()).canonical).toBe(
      'mainAuthor.birthYear desc, pageCount',
    );
    // One field twice, however spelled, is one field twice.
    expect(problem(() => parseOrderBy('publishTime, publish_time desc', proto()))).toContain(
      "'publish_time' is listed twice",
    );
  });

  it('answers in the spelling the caller used', () => {
    expect(problem(() => compileFilter('publish_tme > 2020-01-01T00:00:00Z', proto()))).toContain(
      "unknown field 'publish_tme'; did you mean 'publish_time'?",
    );
    expect(problem(() => compileFilter('publishTme > 2020-01-01T00:00:00Z', proto()))).toContain(
      "unknown field 'publishTme'; did you mean 'publishTime'?",
    );
    expect(problem(() => compileFilter('main_author.birth_yr = 1', proto()))).toContain(
      "'main_author' has no field 'birth_yr'; did you mean 'birth_year'?",
    );
    expect(problem(() => compileFilter('page_count = many', proto()))).toContain(
      "as 'page_count' requires",
    );
    expect(problem(() => parseOrderBy('page_cnt', proto()))).toContain(
      "unknown field 'page_cnt'; did you mean 'page_count'?",
    );
    expect(problem(() => parseOrderBy('mainAuthor.birthYr', proto()))).toContain(
      "'mainAuthor' has no field 'birthYr'; did you mean 'birthYear'?",
    );
    expect(problem(() => parseOrderBy('main_author', proto()))).toContain(
      "'main_author' cannot be sorted on",
    );
  });
});

describe("fieldNames: 'json' and 'proto'", () => {
  it("'json' refuses proto names, suggesting the JSON one", () => {
    expect(match('pageCount = 120', 'json')).toEqual(['b']);
    expect(problem(() => match('page_count = 120', 'json'))).toContain(
      "unknown field 'page_count'; did you mean 'pageCount'?",
    );
    expect(problem(() => order('publish_time', 'json'))).toContain(
      "unknown field 'publish_time'; did you mean 'publishTime'?",
    );
  });

  it("'proto' refuses JSON names, suggesting the proto one", () => {
    expect(match('page_count = 120 AND main_author.display_name = Lem', 'proto')).toEqual(['b']);
    expect(order('publish_time', 'proto')).toEqual(['c', 'a', 'b']);
    expect(problem(() => match('pageCount = 120', 'proto'))).toContain(
      "unknown field 'pageCount'; did you mean 'page_count'?",
    );
    expect(problem(() => order('mainAuthor.birthYear', 'proto'))).toContain(
      "unknown field 'mainAuthor'; did you mean 'main_author'?",
    );
  });

  it('applies to a defineSchema schema, deriving proto names from JSON ones', () => {
    const schema = defineSchema({
      key: 'name',
      fieldNames: 'proto',
      fields: {
        name: t.string({ searchable: true }),
        createTime: t.timestamp(),
        isbn: t.string({ protoName: 'isbn_13' }),
      },
    });
    const items = [
      { name: 'x', createTime: '2020-01-01T00:00:00Z', isbn: '1' },
      { name: 'y', createTime: '2021-01-01T00:00:00Z', isbn: '2' },
    ];
    const { matches } = compileFilter(
      'create_time > 2020-06-01T00:00:00Z OR isbn_13 = "1"',
      schema,
    );
    expect(items.filter(matches).map((i) => i.name)).toEqual(['x', 'y']);
    // Bare values search the schema's own fields, whatever the spelling setting.
    expect(items.filter(compileFilter('y', schema).matches).map((i) => i.name)).toEqual(['y']);
    expect(parseOrderBy('create_time desc', schema).canonical).toBe('createTime desc');
  });
});

describe('schema JSON (listkit filter --print-schema, then --schema)', () => {
  it('keeps the spelling setting and declared proto names', () => {
    const schema = proto();
    expect(schema.fieldNames).toBe('both');
    expect(schema.fields.isbn).toEqual({ kind: 'string', protoName: 'isbn_13' });
    const again = parseSchemaJson(JSON.parse(JSON.stringify(schema)));
    expect(again).toEqual(schema);
    expect(books.filter(compileFilter('isbn_13 = "333"', again).matches)).toHaveLength(1);
    expect(() => parseSchemaJson({ ...schema, fieldNames: 'snake' })).toThrow(SchemaSourceError);
  });
});

describe('a proto-first list method', () => {
  it('serves order_by "create_time desc", as the issue asked, with the JSON names on the wire', async () => {
    const schema = schemaFromProto(LIBRARY_PROTO, { message: 'library.v1.Book' });
    const library = new Collection(schema, { pageTokens: await PageTokenCodec.create() });
    for (const [i, year] of [1965, 1974, 1969].entries()) {
      library.put({
        name: `shelves/1/books/${i}`,
        year,
        createTime: `20${10 + i}-01-01T00:00:00Z`,
      });
    }
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const request = { filter: 'year > 1966', order_by: 'create_time desc', page_size: 1 };
      const response = await runListRequest(
        { ...request, ...(token ? { page_token: token } : {}) },
        library,
        { itemsField: 'books' },
      );
      seen.push(...(response.books ?? []).map((b) => (b as { name: string }).name));
      token = response.nextPageToken;
    } while (token);
    expect(seen).toEqual(['shelves/1/books/2', 'shelves/1/books/1']);
  });
});

describe('SQL', () => {
  it('plans the same statement for either spelling', () => {
    const schema = proto();
    const table = sqlTable(schema, { table: 'books' });
    const statement = (filter: string, orderBy: string) =>
      planListQuery(table, {
        filter: compileFilter(filter, schema),
        order: parseOrderBy(orderBy, schema),
        pageSize: 10,
      });
    const snake = statement('main_author.birth_year < 1930', 'publish_time desc');
    const camel = statement('mainAuthor.birthYear < 1930', 'publishTime desc');
    expect(snake.text).toBe(camel.text);
    expect(snake.params).toEqual(camel.params);
    expect(snake.text).toContain('ORDER BY "publish_time" DESC');
  });
});
