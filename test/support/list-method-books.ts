// The books of the list-method apps: one schema (from a JSON Schema, as an app that validates its
// resources would have), one data set, and the expectations the apps' pages are compared with,
// computed here in plain JavaScript.
import { Collection, PageTokenCodec, schemaFromJsonSchema } from '@listkit/query';

export interface Book {
  name: string;
  title: string;
  author: string;
  year: number;
  genre: 'FANTASY' | 'MYSTERY' | 'SCIENCE_FICTION' | 'HISTORY';
  createTime: string;
}

export const bookJsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    title: { type: 'string' },
    author: { type: 'string' },
    year: { type: 'integer' },
    genre: { enum: ['FANTASY', 'MYSTERY', 'SCIENCE_FICTION', 'HISTORY'] },
    createTime: { type: 'string', format: 'date-time' },
  },
  required: ['name'],
};

export const bookSchema = schemaFromJsonSchema(bookJsonSchema, { key: 'name' });

const GENRES = ['FANTASY', 'MYSTERY', 'SCIENCE_FICTION', 'HISTORY'] as const;
const AUTHORS = ['Le Guin', 'Christie', 'Lem', 'Tuchman', 'Jemisin'];

/** 57 books on shelf 1: enough for several pages, with ties in year so the key breaks them. */
export const BOOKS: Book[] = Array.from({ length: 57 }, (_, i) => ({
  name: `shelves/1/books/${String(i).padStart(3, '0')}`,
  title: `Volume ${i}`,
  author: AUTHORS[i % AUTHORS.length]!,
  year: 1950 + ((i * 7) % 40),
  genre: GENRES[i % GENRES.length]!,
  createTime: new Date(Date.UTC(2024, 0, 1 + i)).toISOString(),
}));

/** A Collection of {@link BOOKS}, as each app serves it (with a new codec unless given one). */
export async function bookCollection(pageTokens?: PageTokenCodec): Promise<Collection<Book>> {
  const books = new Collection<Book>(bookSchema, {
    pageTokens: pageTokens ?? (await PageTokenCodec.create()),
  });
  for (const book of BOOKS) books.put(book);
  return books;
}

/** The books of shelf 2: the same as shelf 1's, so only the parent tells them apart. */
export const SHELF_TWO: Book[] = BOOKS.map((b) => ({
  ...b,
  name: b.name.replace('shelves/1/', 'shelves/2/'),
}));

/** A Collection of both shelves' books, for the tests that one parent's list never leaks the other's. */
export async function twoShelves(pageTokens?: PageTokenCodec): Promise<Collection<Book>> {
  const books = await bookCollection(pageTokens);
  for (const book of SHELF_TWO) books.put(book);
  return books;
}

/** Walks every page of a list (`page(pageToken)` answers one page); returns the names. */
export async function walkPages(
  page: (pageToken: string) => Promise<{ books: { name: string }[]; nextPageToken: string }>,
): Promise<string[]> {
  const names: string[] = [];
  let pageToken = '';
  do {
    const response = await page(pageToken);
    names.push(...response.books.map((b) => b.name));
    pageToken = response.nextPageToken;
  } while (pageToken);
  return names;
}

/** The names `filter=year >= 1970 AND genre != HISTORY&orderBy=year desc` lists, in order. */
export function expectedRecentNotHistory(): string[] {
  return BOOKS.filter((b) => b.year >= 1970 && b.genre !== 'HISTORY')
    .sort((a, b) => b.year - a.year || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((b) => b.name);
}
