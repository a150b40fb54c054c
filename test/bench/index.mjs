// Index benchmark: listkit's SortedIndex (a B+ tree from sorted-btree) against the skip list it
// replaced (test/bench/skip-list.mjs), in the same run, for insert, seek and scan at each size
// and in both Compute Engine orderings; then Collection.put with both orderings indexed, against
// the aim of 5 µs per item per ordering. Prints; never asserts.
// Knob: BENCH_INDEX_SIZES (default "10000,100000,1000000").
import { Collection, PageTokenCodec, parseOrderBy, SortedIndex } from '@listkit/query';
import { forwardingRuleSchema, sampleForwardingRules } from '@listkit/service';
import { SkipList } from './skip-list.mjs';

const SIZES = (process.env.BENCH_INDEX_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const ORDERS = ['', 'creationTimestamp desc'];
const SEEKS = 20_000;
const PUT_AIM_US = 5;

const now = () => process.hrtime.bigint();
const fmt = (n, digits = 2) => n.toFixed(digits);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

function table(headers, rows) {
  console.log(`| ${headers.join(' | ')} |`);
  console.log(`|${headers.map((_, i) => (i === 0 ? ':---' : '---:')).join('|')}|`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  console.log();
}

/** ns for one call of fn(), median of 3 (the structure is rebuilt by `fresh` for each). */
function time(fn) {
  const start = now();
  const result = fn();
  return { ns: Number(now() - start), result };
}

/** Insert all keys, seek SEEKS random keys (one item each), scan everything; ns per operation. */
function measure(make, keys, items, probes) {
  globalThis.gc?.();
  const index = make();
  const insert = time(() => {
    for (let i = 0; i < keys.length; i++) index.insert(keys[i], items[i]);
  });
  let found = 0;
  const take = () => {
    found++;
    return false;
  };
  const seek = time(() => {
    for (const probe of probes) index.visitAfter(probe, take);
  });
  const scans = [];
  let count = 0;
  const visit = () => {
    count++;
    return true;
  };
  for (let r = 0; r < 3; r++) scans.push(time(() => index.visitAfter(undefined, visit)).ns);
  return {
    insert: insert.ns / keys.length,
    seek: seek.ns / probes.length,
    scan: median(scans) / keys.length,
    check: `${index.size}/${found}/${count / 3}`,
  };
}

console.log('# listkit index benchmark');
console.log();
console.log(`node ${process.version}, sizes ${SIZES.join(', ')}`);
console.log();

const rows = [];
const putRows = [];
const pageTokens = await PageTokenCodec.create();
for (const size of SIZES) {
  const rules = sampleForwardingRules(size);
  for (const orderBy of ORDERS) {
    const order = parseOrderBy(orderBy, forwardingRuleSchema);
    const keys = rules.map((r) => order.sortKey(r));
    // Probes: keys of items present, in random order (a seek lands anywhere).
    const probes = Array.from({ length: SEEKS }, (_, i) => keys[(i * 7919 * 104729) % size]);
    // Warm both structures on a small slice first, then alternate which one goes first.
    for (const make of [
      () => new SortedIndex(order.compareKeys),
      () => new SkipList(order.compareKeys),
    ]) {
      measure(make, keys.slice(0, 5000), rules, probes.slice(0, 1000));
    }
    const tree = measure(() => new SortedIndex(order.compareKeys), keys, rules, probes);
    const skip = measure(() => new SkipList(order.compareKeys), keys, rules, probes);
    rows.push([
      size.toLocaleString('en-US'),
      orderBy === '' ? 'name (default)' : orderBy,
      fmt(tree.insert / 1000),
      fmt(skip.insert / 1000),
      `${fmt(tree.insert / skip.insert)}x`,
      fmt(tree.seek / 1000),
      fmt(skip.seek / 1000),
      `${fmt(tree.seek / skip.seek)}x`,
      fmt(tree.scan, 1),
      fmt(skip.scan, 1),
      `${fmt(tree.scan / skip.scan)}x`,
      tree.check === skip.check ? 'yes' : `NO (${tree.check} vs ${skip.check})`,
    ]);
  }
  // Collection.put with both orderings indexed (built by one list each before the puts).
  globalThis.gc?.();
  const collection = new Collection(forwardingRuleSchema, { pageTokens });
  for (const orderBy of ORDERS) await collection.list({ orderBy, pageSize: 1 });
  const put = time(() => {
    for (const rule of rules) collection.put(rule);
  });
  const perItemPerOrdering = put.ns / 1000 / size / ORDERS.length;
  putRows.push([
    size.toLocaleString('en-US'),
    fmt(put.ns / 1e6, 0),
    fmt(put.ns / 1000 / size),
    fmt(perItemPerOrdering),
    fmt(PUT_AIM_US),
    perItemPerOrdering <= PUT_AIM_US ? 'met' : 'missed',
  ]);
}

console.log('## SortedIndex (B+ tree) against the skip list it replaced');
console.log();
console.log(
  'Sort keys are computed beforehand: these are the structures alone. insert: all N keys in generation order, µs per key; seek: one visitAfter to a present key that stops at the first item, µs per seek (20,000 seeks); scan: a full visitAfter, ns per item (median of 3).',
);
console.log();
table(
  [
    'N',
    'orderBy',
    'insert µs B+ tree',
    'insert µs skip list',
    'B+/skip',
    'seek µs B+ tree',
    'seek µs skip list',
    'B+/skip',
    'scan ns/item B+ tree',
    'scan ns/item skip list',
    'B+/skip',
    'same counts',
  ],
  rows,
);
console.log('## Collection.put with two orderings indexed');
console.log();
console.log(
  'A new collection whose two orderings are built while empty, then N puts (each computes the sort keys and inserts into both indexes).',
);
console.log();
table(['N', 'total ms', 'µs/item', 'µs/item/ordering', 'aim µs/item/ordering', 'aim'], putRows);
