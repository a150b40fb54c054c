// An AIP-style resource (google.aip.dev/121): `publishers/*/books/*` with a state enum,
// create/update/publish timestamps, labels, repeated topics and a nested author.
import { defineSchema, t } from '@listkit/query';
import { seededRandom } from '@listkit/service/schema';
import type { Example } from '../examples.js';
import { type Dataset, pick, type Resource, timeAfter } from './dataset.js';

const STATES = ['STATE_UNSPECIFIED', 'DRAFT', 'PUBLISHED', 'OUT_OF_PRINT'] as const;
const PUBLISHERS = ['acme', 'globex', 'initech'];
const TOPICS = ['fiction', 'history', 'science', 'travel', 'poetry', 'cooking', 'children'];
const LANGS = ['en', 'fr', 'de', 'es', 'ja'];
const WORDS = ['Silent', 'River', 'Glass', 'Northern', 'Garden', 'Atlas', 'Winter', 'Signal'];
const AUTHORS = ['Ada Park', 'Bo Lind', 'Chen Wu', 'Dana Roe', 'Eli Moss', 'Fay Ortiz'];

export const bookSchema = defineSchema({
  key: 'name',
  fields: {
    name: t.string({ searchable: true }),
    title: t.string({ searchable: true }),
    state: t.enum(STATES),
    author: t.message({ displayName: t.string(), country: t.string() }),
    pageCount: t.int64(),
    rating: t.double(),
    topics: t.repeated(t.string()),
    labels: t.map(t.string()),
    createTime: t.timestamp(),
    updateTime: t.timestamp(),
    publishTime: t.timestamp(),
    readingTime: t.duration(),
  },
});

export function generateBooks(count: number): Resource[] {
  const random = seededRandom(1847);
  const books: Resource[] = [];
  for (let i = 0; i < count; i++) {
    const created = random() * 600;
    const state = STATES[1 + Math.floor(random() * 3)]!;
    const pages = 80 + Math.floor(random() * 700);
    const book: Resource = {
      name: `publishers/${pick(random, PUBLISHERS)}/books/${String(1000 + i)}`,
      title: `${pick(random, WORDS)} ${pick(random, WORDS)}`,
      state,
      author: { displayName: pick(random, AUTHORS), country: pick(random, ['NZ', 'US', 'FR']) },
      pageCount: pages,
      rating: Math.round((1 + random() * 4) * 10) / 10,
      topics: TOPICS.filter(() => random() < 0.25),
      labels: { lang: pick(random, LANGS), ...(random() < 0.4 ? { series: 'yes' } : {}) },
      createTime: timeAfter(created),
      updateTime: timeAfter(created + random() * 60),
      readingTime: `${pages * 90}s`,
    };
    if (state !== 'DRAFT') book.publishTime = timeAfter(created + 30 + random() * 90);
    books.push(book);
  }
  return books;
}

const example = (id: string, title: string, filter: string, shows: string): Example => ({
  id: `books-${id}`,
  group: 'Books',
  dataset: 'books',
  title,
  filter,
  shows,
});

export const BOOK_EXAMPLES: readonly Example[] = [
  example('published', 'Published books', 'state = PUBLISHED', 'an enum'),
  example(
    'recent',
    'Created since a date',
    'createTime >= 2025-01-01T00:00:00Z AND state != DRAFT',
    'timestamps',
  ),
  example('long', 'Long reads', 'pageCount > 500 OR readingTime > 43200s', 'int64, durations'),
  example('topic', 'About history', 'topics:history AND labels.lang = en', 'repeated, maps'),
  example('author', 'By one author', 'author.displayName = "Ada Park"', 'a nested message'),
  example('search', 'Search titles', 'River', 'a bare value (searchable fields)'),
  example('regex', 'Regex style', '(title eq "Silent.*")(state ne "DRAFT")', 'eq, ne'),
];

export const books: Dataset = {
  id: 'books',
  title: 'Books (AIP-style)',
  singular: 'book',
  plural: 'books',
  schema: bookSchema,
  generate: generateBooks,
  defaultSample: 300,
  firstFilter: 'state = PUBLISHED AND createTime >= 2025-01-01T00:00:00Z AND labels.lang = en',
  columns: ['title', 'state', 'createTime'],
  examples: BOOK_EXAMPLES,
  listCall: {
    origin: 'https://library.example.com',
    path: '/v1/publishers/-/books',
    pageSizeParam: 'pageSize',
  },
  compute: false,
};
