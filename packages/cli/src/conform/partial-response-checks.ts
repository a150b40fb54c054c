// `listkit conform`'s partial-response checks: the `fields` system parameter (AIP-157; Google's
// "Partial response"), with listkit's own field-mask reader as the oracle of what a page holds
// once projected.
import { isDeepStrictEqual } from 'node:util';
import {
  compileFieldMask,
  type FieldMask,
  ListkitError,
  listResponseType,
  type ResourceSchema,
} from '@listkit/query';
import { type Check, refusedCause, type Walk, walk } from './checks.js';
import type { ConformClient, ListAnswer } from './conform-client.js';
import { difference } from './key-lists.js';

type Item = Record<string, unknown>;

const NAMES = {
  selected: 'fields keeps exactly the selected paths',
  walk: "a walk with fields gives the default walk's items",
  unknown: 'fields naming a field that cannot exist is refused',
} as const;

/** A page size small enough that the first page carries a token on most listings. */
const PAGE = 2;

/**
 * The field kept beside the key: one present in most items, an object (a map or message) when
 * one is, so that a projection keeps a whole sub-value; undefined when items hold only the key.
 */
export function companionField(schema: ResourceSchema, items: readonly Item[]): string | undefined {
  const top = schema.key.split('.')[0]!;
  const counts = new Map<string, { n: number; object: boolean }>();
  for (const item of items) {
    for (const [name, value] of Object.entries(item)) {
      if (name === top || !Object.hasOwn(schema.fields, name)) continue;
      const c = counts.get(name) ?? { n: 0, object: false };
      c.n++;
      c.object ||= value !== null && typeof value === 'object' && !Array.isArray(value);
      counts.set(name, c);
    }
  }
  const ranked = [...counts].sort(
    ([a, x], [b, y]) => Number(y.object) - Number(x.object) || y.n - x.n || (a < b ? -1 : 1),
  );
  return ranked[0]?.[0];
}

/**
 * The partial-response checks, when the server has `fields`: a refusal (400, 501) is "not
 * supported"; so, in the AIP style, is an answer that ignores it. In the Compute style ignoring
 * it fails: every Google API honours the system parameter.
 */
export async function partialResponseChecks(
  client: ConformClient,
  schema: ResourceSchema,
  full: Walk,
  add: (check: Check) => void,
): Promise<void> {
  const itemsField = client.itemsField;
  const skipAll = (cause: string) => {
    for (const name of Object.values(NAMES)) add({ group: 'partial', name, status: 'SKIP', cause });
  };
  if (itemsField === undefined || full.items.length === 0) {
    skipAll('the listing is empty: no items to select from');
    return;
  }
  const keyPath = schema.key.split('.').join('/');
  const other = companionField(schema, full.items);
  const text = `${itemsField}(${[keyPath, ...(other ? [other] : [])].join(',')}),nextPageToken`;
  let mask: FieldMask;
  try {
    mask = compileFieldMask(text, listResponseType(schema, { items: itemsField }));
  } catch (error) {
    if (!(error instanceof ListkitError)) throw error;
    skipAll(`listkit: ${error.message}`);
    return;
  }
  const supported = await selectedCheck(client, mask, itemsField, add);
  if (!supported) return;
  add(await walkCheck(client, schema, full, text));
  add(await unknownFieldCheck(client, schema, itemsField, keyPath));
}

/** The first page with `fields`, compared with listkit's projection of the page without it. */
async function selectedCheck(
  client: ConformClient,
  mask: FieldMask,
  itemsField: string,
  add: (check: Check) => void,
): Promise<boolean> {
  const name = NAMES.selected;
  const masked = await client.list({ pageSize: PAGE, fields: mask.source });
  if (masked.status === 400 || masked.status === 501) {
    add(notSupported(name, refusedCause(masked)));
    return false;
  }
  if (masked.status < 200 || masked.status > 299) {
    add({
      group: 'partial',
      name,
      status: 'FAIL',
      cause: `answered ${refusedCause(masked)}`,
      curl: masked.curl,
    });
    return false;
  }
  const plain = await client.list({ pageSize: PAGE });
  if (plain.status < 200 || plain.status > 299) {
    add({
      group: 'partial',
      name,
      status: 'FAIL',
      cause: `without fields: ${refusedCause(plain)}`,
      curl: plain.curl,
    });
    return false;
  }
  const want = mask.apply(pageOf(plain, itemsField)) as Record<string, unknown>;
  const wantItems = (want[itemsField] as Item[] | undefined) ?? [];
  if (!isDeepStrictEqual(wantItems, plain.items) && isDeepStrictEqual(masked.items, plain.items)) {
    const cause = `the server ignores fields=${mask.source}: it answered every field`;
    if (client.target.style === 'aip') {
      add(notSupported(name, cause));
      return false;
    }
    add({
      group: 'partial',
      name,
      status: 'FAIL',
      cause: `${cause} (every Google API honours the fields system parameter)`,
      curl: masked.curl,
    });
    return true;
  }
  const problems = selectionProblems(masked, plain, wantItems, itemsField);
  add(
    problems.length
      ? {
          group: 'partial',
          name,
          status: 'FAIL',
          cause: problems.join('; '),
          details: { fields: mask.source, expected: wantItems, got: masked.items },
          curl: masked.curl,
        }
      : {
          group: 'partial',
          name,
          status: 'PASS',
          cause: `fields=${mask.source}: ${masked.items.length} items as listkit projects them, the token kept`,
        },
  );
  return true;
}

/** A list answer as the body it came from (the items and the token). */
const pageOf = (answer: ListAnswer, itemsField: string) => ({
  [itemsField]: answer.items,
  ...(answer.nextPageToken ? { nextPageToken: answer.nextPageToken } : {}),
});

/** How a masked page differs from listkit's projection of the same page unmasked. */
function selectionProblems(
  masked: ListAnswer,
  plain: ListAnswer,
  wantItems: readonly Item[],
  itemsField: string,
): string[] {
  const problems: string[] = [];
  const extra = masked.fieldNames.filter((f) => f !== itemsField && f !== 'nextPageToken');
  if (extra.length) problems.push(`unselected top-level fields: ${extra.join(', ')}`);
  if (plain.nextPageToken && !masked.nextPageToken)
    problems.push('nextPageToken was selected but left out');
  if (!plain.nextPageToken && masked.nextPageToken)
    problems.push('a nextPageToken the page without fields has not');
  if (masked.items.length !== wantItems.length) {
    problems.push(`${masked.items.length} items, not ${wantItems.length}`);
    return problems;
  }
  const at = wantItems.findIndex((w, i) => !isDeepStrictEqual(w, masked.items[i]));
  if (at >= 0) {
    problems.push(
      `item ${at + 1} is ${JSON.stringify(masked.items[at]).slice(0, 160)}, listkit projects ${JSON.stringify(wantItems[at]).slice(0, 160)}`,
    );
  }
  return problems;
}

/** A walk whose every page asks for `fields`: the page tokens still lead through the listing. */
async function walkCheck(
  client: ConformClient,
  schema: ResourceSchema,
  full: Walk,
  fields: string,
): Promise<Check> {
  const name = NAMES.walk;
  const w = await walk(client, schema, { pageSize: 7, fields }, full.items.length + 3);
  if (w.refused) {
    return {
      group: 'partial',
      name,
      status: 'FAIL',
      cause: `page ${w.pages.length + 1} answered ${refusedCause(w.refused)}`,
      curl: w.refused.curl,
    };
  }
  const diff = difference(full.keys, w.keys) ?? w.loop;
  return diff
    ? {
        group: 'partial',
        name,
        status: 'FAIL',
        cause: `page size 7, fields=${fields}: ${diff}`,
        curl: w.pages[0]?.curl,
      }
    : {
        group: 'partial',
        name,
        status: 'PASS',
        cause: `${w.pages.length} pages with fields=${fields}, same items`,
      };
}

/**
 * A selection of a field no item can have. Google's front end answers 400 ("Invalid field
 * selection"); AIP-161 lets a read ignore such a path, so in the AIP style an answer holding
 * only the key passes too.
 */
async function unknownFieldCheck(
  client: ConformClient,
  schema: ResourceSchema,
  itemsField: string,
  keyPath: string,
): Promise<Check> {
  const name = NAMES.unknown;
  let missing = 'listkitNoSuchField';
  while (Object.hasOwn(schema.fields, missing)) missing += 'X';
  const fields = `${itemsField}(${keyPath},${missing})`;
  const answer = await client.list({ pageSize: PAGE, fields });
  if (answer.status === 400) {
    return {
      group: 'partial',
      name,
      status: 'PASS',
      cause: `fields=${fields}: ${refusedCause(answer)}`,
    };
  }
  const only = (item: Item) => Object.keys(item).every((k) => k === schema.key.split('.')[0]);
  if (client.target.style === 'aip' && answer.status === 200 && answer.items.every(only)) {
    return {
      group: 'partial',
      name,
      status: 'PASS',
      cause: `fields=${fields}: ignored, as AIP-161 lets a read do`,
    };
  }
  const held =
    answer.status === 200
      ? `, items holding ${JSON.stringify(answer.items[0] ?? {}).slice(0, 120)}`
      : '';
  return {
    group: 'partial',
    name,
    status: 'FAIL',
    cause: `fields=${fields}: answered ${answer.status}${held}, not 400 INVALID_ARGUMENT`,
    curl: answer.curl,
  };
}

const notSupported = (name: string, cause: string): Check => ({
  group: 'partial',
  name,
  status: 'SKIP',
  cause: `not supported: ${cause}`,
  details: { notSupported: true },
});
