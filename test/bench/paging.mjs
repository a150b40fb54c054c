// Paging benchmark: walk N forwarding rules in pages of 500 with listkit's keyset paging
// (Collection.list: seek the index past the cursor, scan, seal a page token), side by side with
// naive offset paging (filter everything, sort everything, slice) in the same run.
// Prints; never asserts. Knob: BENCH_PAGING_SIZES (default "10000,100000,1000000").
import { Collection, compileFilter, PageTokenCodec, parseOrderBy } from '@listkit/query';
import { forwardingRuleSchema, sampleForwardingRules } from '@listkit/service';

const SIZES = (process.env.BENCH_PAGING_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const PAGE = 500;
const ORDERS = ['', 'creationTimestamp desc'];
// About 1% of the generated names end in 17.
const FILTERS = ['', 'name = *17'];
const NAIVE_PAGES = 3;
// Declared indexes of the collection (CollectionOptions.indexes) and filters whose equality
// conjunct seeks one, from a quarter of the rules down to one rule and to none; each page's
// cost is set beside the unfiltered page's in the same ordering and size (aim: within 2x).
const INDEXES = ['labels', 'IPAddress'];
const INDEXED_FILTERS = [
  'labels.env = prod',
  'labels.team = core',
  'labels.env = prod AND labels.team = core',
  'IPAddress = "10.0.1.17"',
  'labels.env = nope',
];

const now = () => process.hrtime.bigint();
const ms = (from, to) => Number(to - from) / 1e6;
const fmt = (n, digits = 3) => n.toFixed(digits);

function table(headers, rows) {
  console.log(`| ${headers.join(' | ')} |`);
  console.log(`|${headers.map((_, i) => (i === 0 ? ':---' : '---:')).join('|')}|`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  console.log();
}

/** Walks every page with keyset paging; returns the number of pages, items and the time. */
async function walkKeyset(collection, filter, orderBy) {
  let pageToken;
  let pages = 0;
  let items = 0;
  const start = now();
  do {
    const page = await collection.list({ filter, orderBy, pageSize: PAGE, pageToken });
    pages++;
    items += page.items.length;
    pageToken = page.nextPageToken;
  } while (pageToken);
  return { pages, items, totalMs: ms(start, now()) };
}

/** Offset paging the naive way: every page filters and sorts the whole collection. */
function naivePage(rules, filter, order, pageIndex) {
  const compiled = compileFilter(filter, forwardingRuleSchema);
  // Each sort key is computed once per item (decorate, sort, undecorate), the fair way to sort.
  const keyed = rules.filter((r) => compiled.matches(r)).map((r) => [order.sortKey(r), r]);
  keyed.sort((a, b) => order.compareKeys(a[0], b[0]));
  compiled.dispose();
  return keyed.slice(pageIndex * PAGE, (pageIndex + 1) * PAGE).map(([, r]) => r);
}

function naivePerPage(rules, filter, orderBy, totalPages) {
  const order = parseOrderBy(orderBy, forwardingRuleSchema);
  const times = [];
  // First, middle and last page: the cost does not depend on which page it is.
  for (const index of [0, Math.floor(totalPages / 2), totalPages - 1].slice(0, NAIVE_PAGES)) {
    const start = now();
    naivePage(rules, filter, order, index);
    times.push(ms(start, now()));
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

console.log(`# listkit paging benchmark (pages of ${PAGE})`);
console.log();
console.log(`node ${process.version}, sizes ${SIZES.join(', ')}`);
console.log();

const pageTokens = await PageTokenCodec.create();

// Warm-up: let the JIT settle on every code path before the first measured size.
{
  const warm = new Collection(forwardingRuleSchema, { pageTokens, indexes: INDEXES });
  for (const rule of sampleForwardingRules(20_000, { seed: 2 })) warm.put(rule);
  for (const orderBy of ORDERS) {
    for (const filter of FILTERS) {
      await walkKeyset(warm, filter, orderBy);
      naivePerPage(sampleForwardingRules(2_000, { seed: 3 }), filter, orderBy, 4);
    }
    for (const filter of INDEXED_FILTERS) await walkKeyset(warm, filter, orderBy);
  }
}

const rows = [];
const indexedRows = [];
const perPageAt = new Map();
for (const size of SIZES) {
  const rules = sampleForwardingRules(size);
  const collection = new Collection(forwardingRuleSchema, { pageTokens, indexes: INDEXES });
  const buildStart = now();
  for (const rule of rules) collection.put(rule);
  // The first list per ordering builds that ordering's index; build both before timing pages.
  for (const orderBy of ORDERS) await collection.list({ orderBy, pageSize: 1 });
  const buildMs = ms(buildStart, now());
  console.log(
    `N = ${size.toLocaleString('en-US')}: inserted and indexed (2 orderings) in ${fmt(buildMs, 0)} ms`,
  );
  for (const orderBy of ORDERS) {
    for (const filter of FILTERS) {
      globalThis.gc?.();
      const walk = await walkKeyset(collection, filter, orderBy);
      const keysetPerPage = walk.totalMs / walk.pages;
      const naive = naivePerPage(rules, filter, orderBy, walk.pages);
      perPageAt.set(`${size}|${orderBy}|${filter}`, keysetPerPage);
      rows.push([
        size.toLocaleString('en-US'),
        orderBy === '' ? 'name (default)' : orderBy,
        filter === '' ? '(none)' : `\`${filter}\``,
        walk.pages,
        walk.items,
        fmt(keysetPerPage),
        fmt(naive),
        `${fmt(naive / keysetPerPage, 0)}x`,
        fmt(walk.totalMs, 0),
        fmt((walk.totalMs * 1e6) / size, 0),
      ]);
    }
    for (const filter of INDEXED_FILTERS) {
      globalThis.gc?.();
      // The first page builds the declared index's tree for this ordering: not timed.
      await collection.list({ filter, orderBy, pageSize: 1 });
      const plan = collection.plan({ filter, orderBy, pageSize: PAGE });
      // These walks are short (a few pages): the median of three.
      const walks = [];
      for (let r = 0; r < 3; r++) walks.push(await walkKeyset(collection, filter, orderBy));
      walks.sort((a, b) => a.totalMs - b.totalMs);
      const walk = walks[1];
      const perPage = walk.totalMs / walk.pages;
      const unfiltered = perPageAt.get(`${size}|${orderBy}|`);
      indexedRows.push([
        size.toLocaleString('en-US'),
        orderBy === '' ? 'name (default)' : orderBy,
        `\`${filter}\``,
        plan.access === 'index' ? `seek ${plan.index}` : 'scan',
        plan.candidates,
        walk.pages,
        walk.items,
        fmt(perPage),
        fmt(unfiltered),
        `${fmt(perPage / unfiltered, 2)}x`,
        perPage <= 2 * unfiltered ? 'met' : 'missed',
      ]);
    }
  }
}

console.log();
console.log('## Per-page cost and full walks');
console.log();
table(
  [
    'N',
    'orderBy',
    'filter',
    'pages',
    'items',
    'keyset ms/page',
    'naive ms/page',
    'naive/keyset',
    'keyset walk ms',
    'walk ns/item',
  ],
  rows,
);

const smallest = SIZES[0];
const growth = [];
for (const size of SIZES.slice(1)) {
  for (const orderBy of ORDERS) {
    for (const filter of FILTERS) {
      const base = perPageAt.get(`${smallest}|${orderBy}|${filter}`);
      const at = perPageAt.get(`${size}|${orderBy}|${filter}`);
      growth.push([
        `${size.toLocaleString('en-US')} vs ${smallest.toLocaleString('en-US')}`,
        orderBy === '' ? 'name (default)' : orderBy,
        filter === '' ? '(none)' : `\`${filter}\``,
        `${fmt(at / base, 2)}x`,
      ]);
    }
  }
}
console.log('## Filtered pages through declared indexes, beside the unfiltered page');
console.log();
console.log(
  `Collection declared with indexes ${INDEXES.map((i) => `'${i}'`).join(', ')}. access is what Collection.plan() chose for a page of ${PAGE}; candidates is how many rules hold the sought value. Aim: a page at most 2x the unfiltered page of the same size and ordering.`,
);
console.log();
table(
  [
    'N',
    'orderBy',
    'filter',
    'access',
    'candidates',
    'pages',
    'items',
    'ms/page',
    'unfiltered ms/page',
    'filtered/unfiltered',
    'aim (≤ 2x)',
  ],
  indexedRows,
);

console.log('## Growth of the keyset per-page cost with N');
console.log();
table(['N', 'orderBy', 'filter', 'per-page cost ratio'], growth);
