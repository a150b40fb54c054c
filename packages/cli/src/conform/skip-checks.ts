// `listkit conform`'s checks of AIP-158's `skip`: "skip this many results, then page", relative
// to the page token when there is one, carried on by the token it answers, past the end an empty
// page with no token, a negative value refused.
import type { ResourceSchema } from '@listkit/query';
import { type Check, keyOf, refusedCause, type Walk, walk } from './checks.js';
import type { ConformClient, ListAnswer } from './conform-client.js';
import { difference } from './key-lists.js';

const NAMES = {
  first: 'skip N starts the page at item N+1',
  carried: 'the page token carries the skip on',
  fromToken: 'skip with a page token skips from the token',
  pastEnd: 'skip past the end is an empty page with no token',
  negative: 'a negative skip is refused',
} as const;

const PAGE = 2;

const ok = (a: ListAnswer) => a.status >= 200 && a.status <= 299;

/**
 * The skip checks. A refusal of the first (400, 501), or an answer that ignores it (the page is
 * the listing's first), is "not supported": `skip` is optional in AIP-158, and Compute Engine
 * has none.
 */
export async function skipChecks(
  client: ConformClient,
  schema: ResourceSchema,
  full: Walk,
  add: (check: Check) => void,
): Promise<void> {
  const n = full.keys.length;
  if (n < 2) {
    for (const name of Object.values(NAMES)) {
      add({ group: 'skip', name, status: 'SKIP', cause: 'fewer than 2 items: nothing to skip' });
    }
    return;
  }
  const skip = Math.min(3, n - 1);
  const keys = (a: ListAnswer) => a.items.map((i) => keyOf(schema, i));
  const first = await client.list({ pageSize: PAGE, skip });
  const want = full.keys.slice(skip, skip + PAGE);
  if (first.status === 400 || first.status === 501) {
    add(notSupported(NAMES.first, refusedCause(first)));
    return;
  }
  if (ok(first) && difference(full.keys.slice(0, PAGE), keys(first)) === undefined) {
    add(
      notSupported(NAMES.first, `the server ignores skip=${skip}: its page is the listing's first`),
    );
    return;
  }
  add(compare(NAMES.first, first, keys(first), want, `skip=${skip}, page size ${PAGE}`));
  add(await carriedCheck(client, schema, full, skip));
  add(await fromTokenCheck(client, full, keys));
  add(await pastEndCheck(client, n));
  add(await negativeCheck(client));
}

/** One page's keys against the listing's, as a check. */
function compare(
  name: string,
  answer: ListAnswer,
  got: readonly string[],
  want: readonly string[],
  what: string,
): Check {
  if (!ok(answer)) {
    return {
      group: 'skip',
      name,
      status: 'FAIL',
      cause: `${what}: answered ${refusedCause(answer)}`,
      curl: answer.curl,
    };
  }
  const diff = difference(want, got);
  return diff
    ? {
        group: 'skip',
        name,
        status: 'FAIL',
        cause: `${what}: ${diff}`,
        details: { expected: want, got },
        curl: answer.curl,
      }
    : {
        group: 'skip',
        name,
        status: 'PASS',
        cause: `${what}: ${want.length ? `items ${want.join(', ')}` : 'no items'}`,
      };
}

/** A walk that sends `skip` on its first request only: the tokens lead on from there. */
async function carriedCheck(
  client: ConformClient,
  schema: ResourceSchema,
  full: Walk,
  skip: number,
): Promise<Check> {
  const name = NAMES.carried;
  const w = await walk(client, schema, { pageSize: 7 }, full.keys.length + 3, { skip });
  if (w.refused) {
    return {
      group: 'skip',
      name,
      status: 'FAIL',
      cause: `page ${w.pages.length + 1} answered ${refusedCause(w.refused)}`,
      curl: w.refused.curl,
    };
  }
  const diff = difference(full.keys.slice(skip), w.keys) ?? w.loop;
  return diff
    ? {
        group: 'skip',
        name,
        status: 'FAIL',
        cause: `skip=${skip} on the first page, then its tokens: ${diff}`,
        curl: w.pages[1]?.curl ?? w.pages[0]?.curl,
      }
    : {
        group: 'skip',
        name,
        status: 'PASS',
        cause: `skip=${skip}, then ${w.pages.length} pages: the listing from item ${skip + 1} on`,
      };
}

/**
 * AIP-158: "a request with a page token corresponding to the 51st result and a skip value of 30
 * returns a single page of results starting with the 81st result".
 */
async function fromTokenCheck(
  client: ConformClient,
  full: Walk,
  keys: (a: ListAnswer) => string[],
): Promise<Check> {
  const name = NAMES.fromToken;
  const start = await client.list({ pageSize: PAGE });
  if (!ok(start) || !start.nextPageToken) {
    return {
      group: 'skip',
      name,
      status: 'SKIP',
      cause: `the first page of ${PAGE} carried no token`,
    };
  }
  const from = start.items.length;
  const answer = await client.list({ pageSize: PAGE, pageToken: start.nextPageToken, skip: 1 });
  const want = full.keys.slice(from + 1, from + 1 + PAGE);
  return compare(
    name,
    answer,
    ok(answer) ? keys(answer) : [],
    want,
    `the token after item ${from}, skip=1`,
  );
}

/** Skipping the whole listing: 200, no items, no token (AIP-158). */
async function pastEndCheck(client: ConformClient, n: number): Promise<Check> {
  const name = NAMES.pastEnd;
  const answer = await client.list({ pageSize: PAGE, skip: n });
  const what = `skip=${n} (the listing's size)`;
  if (!ok(answer)) {
    return {
      group: 'skip',
      name,
      status: 'FAIL',
      cause: `${what}: answered ${refusedCause(answer)}, not 200 with no items`,
      curl: answer.curl,
    };
  }
  const problems = [
    ...(answer.items.length ? [`${answer.items.length} items`] : []),
    ...(answer.nextPageToken ? ['a nextPageToken'] : []),
  ];
  return problems.length
    ? {
        group: 'skip',
        name,
        status: 'FAIL',
        cause: `${what}: ${problems.join(' and ')}`,
        curl: answer.curl,
      }
    : { group: 'skip', name, status: 'PASS', cause: `${what}: no items, no token` };
}

/** AIP-158: skip is an int32 that must not be negative; a negative one is INVALID_ARGUMENT. */
async function negativeCheck(client: ConformClient): Promise<Check> {
  const name = NAMES.negative;
  const answer = await client.list({ pageSize: PAGE, skip: -1 });
  return answer.status === 400
    ? { group: 'skip', name, status: 'PASS', cause: `skip=-1: ${refusedCause(answer)}` }
    : {
        group: 'skip',
        name,
        status: 'FAIL',
        cause: `skip=-1: answered ${answer.status}${ok(answer) ? ` with ${answer.items.length} items` : ''}, not 400 INVALID_ARGUMENT`,
        curl: answer.curl,
      };
}

const notSupported = (name: string, cause: string): Check => ({
  group: 'skip',
  name,
  status: 'SKIP',
  cause: `not supported: ${cause}`,
  details: { notSupported: true },
});
