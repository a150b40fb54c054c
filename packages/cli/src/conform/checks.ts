// The checks of `listkit conform`: paging (AIP-158), filtering (AIP-160, listkit as the oracle)
// and ordering (AIP-132) against a live list endpoint.
import {
  compileFilter,
  explainFilter,
  type FilterTrace,
  parseOrderBy,
  type ResourceSchema,
  traceFilter,
} from '@listkit/query';
import { formatBytes } from '../read-capped.js';
import {
  type ConformClient,
  type ListAnswer,
  type ListParams,
  RunStopped,
} from './conform-client.js';
import { fullListingCheck } from './full-listing-check.js';
import { generateFilters, generateOrderBys, valueAt } from './generate.js';
import { difference, few, repeated } from './key-lists.js';
import { partialResponseChecks } from './partial-response-checks.js';
import { skipChecks } from './skip-checks.js';

export type Group = 'paging' | 'filter' | 'ordering' | 'partial' | 'skip' | 'mutate';
export type Status = 'PASS' | 'FAIL' | 'SKIP';

export interface Check {
  group: Group;
  name: string;
  status: Status;
  /** One line: why it passed, failed or was skipped. */
  cause: string;
  details?: Record<string, unknown>;
  /** A command reproducing a failure. */
  curl?: string;
}

type Item = Record<string, unknown>;

/** One walk of every page of a listing. */
export interface Walk {
  /** The items, for the walk without a schema (the full listing); other walks keep only keys. */
  items: Item[];
  keys: string[];
  pages: { count: number; token?: string; curl: string }[];
  /** The answer that refused a page (4xx, 5xx). */
  refused?: ListAnswer;
  /** The walk stopped because a token came back again, or pages never ended. */
  loop?: string;
}

export const keyOf = (schema: ResourceSchema, item: Item): string => {
  const v = valueAt(item, schema.key);
  return typeof v === 'string' ? v : JSON.stringify(v);
};

/**
 * Walks every page of a listing. Without a schema it keeps the items (the full listing, the
 * oracle's data); with one, only their keys. What it holds stays under --max-listing-size.
 * `first` is sent on the first request only (AIP-158's `skip`, which the token carries on).
 */
export async function walk(
  client: ConformClient,
  schema: ResourceSchema | undefined,
  params: Omit<ListParams, 'pageToken'>,
  maxPages: number,
  first: Omit<ListParams, 'pageToken'> = {},
): Promise<Walk> {
  const out: Walk = { items: [], keys: [], pages: [] };
  const seen = new Set<string>();
  let held = 0;
  let pageToken: string | undefined;
  do {
    const answer = await client.list({
      ...params,
      ...(pageToken === undefined ? first : {}),
      pageToken,
    });
    if (answer.status < 200 || answer.status > 299) {
      out.refused = answer;
      return out;
    }
    held += answer.size;
    if (held > client.limits.maxListingBytes) {
      throw new RunStopped(
        `the listing is larger than ${formatBytes(client.limits.maxListingBytes)} (--max-listing-size) after ${out.pages.length + 1} pages\n  ${answer.curl}`,
      );
    }
    if (schema) out.keys.push(...answer.items.map((i) => keyOf(schema, i)));
    else out.items.push(...answer.items);
    out.pages.push({
      count: answer.items.length,
      ...(answer.nextPageToken ? { token: answer.nextPageToken } : {}),
      curl: answer.curl,
    });
    pageToken = answer.nextPageToken;
    if (pageToken !== undefined && seen.has(pageToken)) {
      out.loop = `the token of page ${out.pages.length} came back again`;
      break;
    }
    if (pageToken !== undefined) seen.add(pageToken);
    if (pageToken !== undefined && out.pages.length >= maxPages) {
      out.loop = `still a nextPageToken after ${out.pages.length} pages`;
      break;
    }
  } while (pageToken !== undefined);
  return out;
}

export const refusedCause = (a: ListAnswer) =>
  `${a.status}${a.error?.status ? ` ${a.error.status}` : ''}: ${a.error?.message ?? ''}`.trim();

/**
 * A filter or orderBy the server refused: "not supported" (SKIP) when the first page is answered
 * 400 or 501; any other status, or a refusal after the first page, is a failure.
 */
function refusal(w: Walk, answer: ListAnswer, group: Group, name: string): Check {
  if (w.pages.length === 0 && (answer.status === 400 || answer.status === 501)) {
    return {
      group,
      name,
      status: 'SKIP',
      cause: `not supported: ${refusedCause(answer)}`,
      details: { notSupported: true },
    };
  }
  return {
    group,
    name,
    status: 'FAIL',
    cause: `page ${w.pages.length + 1} answered ${refusedCause(answer)}`,
    curl: answer.curl,
  };
}

export interface ConformOptions {
  maxFilters: number;
  seed: number;
  /** The page sizes walked besides the default. */
  pageSizes: readonly number[];
}

/** Everything the checks found, in the order they ran. */
export async function runChecks(
  client: ConformClient,
  schema: ResourceSchema,
  full: Walk,
  options: ConformOptions,
  add: (check: Check) => void,
): Promise<void> {
  const maxPages = full.items.length + 3;
  const expected = full.keys;

  // Paging: walks with several page sizes agree with the default walk; first, whether the
  // default walk (the oracle's data) itself skipped or repeated items.
  const found: Check[] = [];
  const walks = await sizedWalks(client, schema, full, options.pageSizes, (c) => found.push(c));
  add(fullListingCheck(full, walks));
  for (const check of found) add(check);
  const label = (size: number | undefined) => (size === undefined ? 'the default' : `${size}`);
  const firstFailure = (
    find: (w: Walk, size: number | undefined) => { cause: string; curl?: string } | undefined,
  ) => {
    for (const { size, walk: w } of walks) {
      const found = find(w, size);
      if (found) return found;
    }
    return undefined;
  };
  const verdict = (
    name: string,
    failure: { cause: string; curl?: string } | undefined,
    pass: string,
  ) =>
    add(
      failure
        ? { group: 'paging', name, status: 'FAIL', ...failure }
        : { group: 'paging', name, status: 'PASS', cause: pass },
    );
  verdict(
    'no item comes twice',
    firstFailure((w, size) => {
      const twice = repeated(w.keys);
      return twice.length
        ? { cause: `page size ${label(size)}: ${few(twice)} twice`, curl: w.pages[0]?.curl }
        : undefined;
    }),
    `every walk lists each of ${expected.length} items once`,
  );
  verdict(
    'page size honoured',
    firstFailure((w, size) => {
      if (size === undefined) return undefined;
      const page = w.pages.findIndex((p) => p.count > size);
      return page >= 0
        ? {
            cause: `page size ${size}: page ${page + 1} has ${w.pages[page]!.count} items`,
            curl: w.pages[page]!.curl,
          }
        : undefined;
    }),
    `no page holds more than asked (${options.pageSizes.join(', ')})`,
  );
  verdict(
    'no empty page',
    firstFailure((w, size) => {
      if (w.keys.length === 0 && w.pages.length === 1) return undefined;
      const page = w.pages.findIndex((p) => p.count === 0);
      return page >= 0
        ? {
            cause: `page size ${label(size)}: page ${page + 1} of ${w.pages.length} is empty${
              page > 0 && w.pages[page - 1]!.token ? ' (after a page that carried a token)' : ''
            }`,
            curl: w.pages[page]!.curl,
          }
        : undefined;
    }),
    expected.length === 0 ? 'the listing is empty: one empty page' : 'every page has items',
  );
  verdict(
    'the last page carries no token',
    firstFailure((w, size) =>
      w.loop
        ? { cause: `page size ${label(size)}: ${w.loop}`, curl: w.pages.at(-1)?.curl }
        : undefined,
    ),
    'every walk ends',
  );

  // Ordering: the server's order equals listkit's for a few orderBys.
  const accepted = await orderingChecks(client, schema, full, maxPages, add);

  // Filters: the server's answer equals listkit's evaluation over the listing.
  const supported: string[] = [];
  const filters = generateFilters(
    schema,
    full.items,
    client.target.style,
    options.maxFilters,
    options.seed,
  );
  for (const filter of filters) {
    const check = await filterCheck(client, schema, full, filter, maxPages);
    if (check.status !== 'SKIP') supported.push(filter);
    add(check);
  }

  // Page tokens are bound to the query and tamper-evident.
  await tokenChecks(client, schema, full, supported, accepted, add);

  // Partial responses (`fields`) and AIP-158's `skip`, when the server has them.
  await partialResponseChecks(client, schema, full, add);
  await skipChecks(client, schema, full, add);
}

/** Walks the listing with each page size; each walk gives the default walk's items in order. */
async function sizedWalks(
  client: ConformClient,
  schema: ResourceSchema,
  full: Walk,
  pageSizes: readonly number[],
  add: (check: Check) => void,
): Promise<{ size: number | undefined; walk: Walk }[]> {
  const maxPages = full.items.length + 3;
  const expected = full.keys;
  const walks: { size: number | undefined; walk: Walk }[] = [{ size: undefined, walk: full }];
  for (const size of pageSizes) {
    const w = await walk(client, schema, { pageSize: size }, maxPages);
    walks.push({ size, walk: w });
    const name = `walk with page size ${size} gives the default walk's items in order`;
    if (w.refused) {
      add({
        group: 'paging',
        name,
        status: 'FAIL',
        cause: `a page was refused: ${refusedCause(w.refused)}`,
        curl: w.refused.curl,
      });
      continue;
    }
    const diff = difference(expected, w.keys);
    add(
      diff
        ? {
            group: 'paging',
            name,
            status: 'FAIL',
            cause: diff,
            details: { expected: expected.length, got: w.keys.length },
            curl: w.pages[0]?.curl,
          }
        : { group: 'paging', name, status: 'PASS', cause: `${w.pages.length} pages, same items` },
    );
  }
  return walks;
}

/** The ordering checks: the server's order equals listkit's; the orderBys the server took. */
async function orderingChecks(
  client: ConformClient,
  schema: ResourceSchema,
  full: Walk,
  maxPages: number,
  add: (check: Check) => void,
): Promise<string[]> {
  const accepted: string[] = [];
  for (const orderBy of generateOrderBys(schema, full.items)) {
    const name = `orderBy ${JSON.stringify(orderBy)}`;
    let order: ReturnType<typeof parseOrderBy<Item>>;
    try {
      order = parseOrderBy<Item>(orderBy, schema);
    } catch (error) {
      add({
        group: 'ordering',
        name,
        status: 'SKIP',
        cause: `listkit: ${(error as Error).message}`,
      });
      continue;
    }
    const w = await walk(client, schema, { orderBy, pageSize: 3 }, maxPages);
    if (w.refused) {
      add(refusal(w, w.refused, 'ordering', name));
      continue;
    }
    accepted.push(orderBy);
    const want = [...full.items].sort(order.compare).map((i) => keyOf(schema, i));
    const diff = difference(want, w.keys);
    add(
      diff
        ? {
            group: 'ordering',
            name,
            status: 'FAIL',
            cause: diff,
            details: { expected: want.slice(0, 10), got: w.keys.slice(0, 10) },
            curl: client.curl({ orderBy, pageSize: 3 }),
          }
        : {
            group: 'ordering',
            name,
            status: 'PASS',
            cause: `${want.length} items in listkit's order`,
          },
    );
  }
  return accepted;
}

async function filterCheck(
  client: ConformClient,
  schema: ResourceSchema,
  full: Walk,
  filter: string,
  maxPages: number,
): Promise<Check> {
  const name = filter;
  let compiled: ReturnType<typeof compileFilter<Item>>;
  try {
    compiled = compileFilter<Item>(filter, schema);
  } catch (error) {
    return { group: 'filter', name, status: 'SKIP', cause: `listkit: ${(error as Error).message}` };
  }
  try {
    const w = await walk(client, schema, { filter }, maxPages);
    if (w.refused) return refusal(w, w.refused, 'filter', name);
    const want = full.items.filter((i) => compiled.matches(i));
    const wantKeys = new Set(want.map((i) => keyOf(schema, i)));
    const gotKeys = new Set(w.keys);
    const onlyServer = [...gotKeys].filter((k) => !wantKeys.has(k));
    const onlyListkit = [...wantKeys].filter((k) => !gotKeys.has(k));
    if (onlyServer.length === 0 && onlyListkit.length === 0) {
      return {
        group: 'filter',
        name,
        status: 'PASS',
        cause: `${wantKeys.size} match on both sides`,
      };
    }
    // An example listkit can explain: an item of the full listing (a key only the server
    // returned may be missing from it, when the listing itself skipped it).
    const listed = new Set(full.keys);
    const exampleKey = onlyServer.find((k) => listed.has(k)) ?? onlyListkit[0] ?? onlyServer[0]!;
    const example = full.items.find((i) => keyOf(schema, i) === exampleKey);
    const explanation = example
      ? formatTrace(traceFilter(explainFilter(compiled.checked, filter), example, filter, schema))
      : [];
    const parts: string[] = [];
    if (onlyServer.length) parts.push(`server only: ${few(onlyServer)}`);
    if (onlyListkit.length) parts.push(`listkit only: ${few(onlyListkit)}`);
    return {
      group: 'filter',
      name,
      status: 'FAIL',
      cause: parts.join('; '),
      details: {
        onlyServer: onlyServer.slice(0, 20),
        onlyListkit: onlyListkit.slice(0, 20),
        example: exampleKey,
        server: onlyServer.includes(exampleKey) ? 'returned it' : 'left it out',
        explanation,
      },
      curl: client.curl({ filter }),
    };
  } finally {
    compiled.dispose();
  }
}

/** listkit's trace for one item, one line per clause. */
export function formatTrace(trace: FilterTrace, indent = ''): string[] {
  const lines = [
    `${indent}${trace.result ? 'holds' : 'does not hold'}: ${trace.clause.text}${
      trace.actual !== undefined ? ` (${trace.actual})` : ''
    }`,
  ];
  for (const child of trace.children) lines.push(...formatTrace(child, `${indent}  `));
  return lines;
}

async function tokenChecks(
  client: ConformClient,
  schema: ResourceSchema,
  full: Walk,
  filters: readonly string[],
  orderBys: readonly string[],
  add: (check: Check) => void,
): Promise<void> {
  const names = {
    filter: 'a token is refused when the filter changes',
    orderBy: 'a token is refused when the orderBy changes',
    corrupt: 'a corrupted token is refused',
  };
  const first = full.items.length > 2 ? await client.list({ pageSize: 2 }) : undefined;
  const token = first?.nextPageToken;
  if (!token) {
    const cause =
      full.items.length > 2
        ? 'the first page of 2 carried no token'
        : 'fewer than 3 items: no token to test';
    for (const name of Object.values(names)) {
      add({ group: 'paging', name, status: 'SKIP', cause });
    }
    return;
  }
  const refusal = async (name: string, params: ListParams, what: string, sent = token) => {
    const answer = await client.list({ pageSize: 2, ...params, pageToken: sent });
    const refused = answer.status === 400;
    add(
      refused
        ? {
            group: 'paging',
            name,
            status: 'PASS',
            cause: `400${answer.error?.status ? ` ${answer.error.status}` : ''}`,
          }
        : {
            group: 'paging',
            name,
            status: 'FAIL',
            cause: `${what}: answered ${answer.status}${
              answer.status < 300 ? ` with ${answer.items.length} items` : ''
            }, not 400 INVALID_ARGUMENT`,
            curl: answer.curl,
          },
    );
  };
  // A filter the server supports that keeps at least one item (a changed query, not an empty one).
  const filter = filters[0];
  if (filter === undefined) {
    add({
      group: 'paging',
      name: names.filter,
      status: 'SKIP',
      cause: 'no filter the server supports',
    });
  } else {
    await refusal(
      names.filter,
      { filter },
      `the first page's token with filter ${JSON.stringify(filter)}`,
    );
  }
  const orderBy = orderBys.find((o) => o !== schema.key);
  if (orderBy === undefined) {
    add({
      group: 'paging',
      name: names.orderBy,
      status: 'SKIP',
      cause: 'no orderBy besides the default that the server supports',
    });
  } else {
    await refusal(
      names.orderBy,
      { orderBy },
      `the first page's token with orderBy ${JSON.stringify(orderBy)}`,
    );
  }
  await refusal(names.corrupt, {}, 'the token with one character changed', corrupt(token));
}

/** The token with its middle character changed (to another character of the same alphabet). */
export function corrupt(token: string): string {
  const at = Math.floor(token.length / 2);
  const c = token[at]!;
  const swap = c === 'A' ? 'B' : c === '0' ? '1' : /[a-z]/.test(c) ? c.toUpperCase() : 'A';
  return token.slice(0, at) + swap + token.slice(at + 1);
}
