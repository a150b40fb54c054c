// `listkit conform --mutate RECIPE`: a page walk while items are created and deleted around its
// cursor (AIP-158's consistency for a listing that changes between pages). The recipe says how
// to create and delete an item; every item the run creates is deleted again, even on failure.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ResourceSchema } from '@listkit/query';
import { CliError, EXIT } from '../cli-error.js';
import { formatBytes } from '../read-capped.js';
import { type Check, keyOf, type Walk } from './checks.js';
import { type ConformClient, RunStopped } from './conform-client.js';

/** How to write one item, with `{{name}}` and `{{collection}}` in `url` and `body` strings. */
export interface WriteStep {
  method: string;
  url: string;
  body?: unknown;
}

export interface Recipe {
  create: WriteStep;
  delete: WriteStep;
  /** The created item's key in the listing (default `{{name}}`). */
  key: string;
  /** Poll GET `url` after each write until the item is there (200) or gone (404, 410). */
  wait?: { url: string; attempts: number; intervalMs: number };
}

/** The name prefix of every item `--mutate` creates. */
export const MUTATE_PREFIX = 'listkit-conform-';

/** Reads and checks a recipe file; a bad one is bad usage (status 2). */
export function readRecipe(file: string): Recipe {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`--mutate ${file}: ${(error as Error).message}`, EXIT.usage);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(`--mutate ${file}: not JSON: ${(error as Error).message}`, EXIT.usage);
  }
  const bad = (what: string) => new CliError(`--mutate ${file}: ${what}`, EXIT.usage);
  if (!isObject(value)) throw bad('a recipe is an object {create, delete, key?, wait?}');
  const known = new Set(['create', 'delete', 'key', 'wait']);
  const unknown = Object.keys(value).filter((k) => !known.has(k));
  if (unknown.length) throw bad(`unknown field ${unknown.join(', ')}`);
  const step = (name: 'create' | 'delete', method: string, url?: string): WriteStep => {
    const s = value[name];
    if (!isObject(s)) throw bad(`'${name}' is an object {method?, url, body?}`);
    const m = s.method ?? method;
    const u = s.url ?? url;
    if (typeof m !== 'string' || !/^[A-Z]+$/.test(m)) throw bad(`'${name}.method': e.g. ${method}`);
    if (typeof u !== 'string') throw bad(`'${name}.url' is a string`);
    if (name === 'delete' && !u.includes('{{name}}')) {
      // A delete without the name could reach items the run did not create.
      throw bad(`'delete.url' must contain {{name}}`);
    }
    return { method: m, url: u, ...(s.body !== undefined ? { body: s.body } : {}) };
  };
  const create = step('create', 'POST', '{{collection}}');
  const del = step('delete', 'DELETE');
  if (create.body === undefined && !create.url.includes('{{name}}')) {
    throw bad("'create' must use {{name}} in its url or body");
  }
  const key = value.key ?? '{{name}}';
  if (typeof key !== 'string' || !key.includes('{{name}}')) {
    throw bad('\'key\' is a string with {{name}}, such as "shelves/1/books/{{name}}"');
  }
  let wait: Recipe['wait'];
  if (value.wait !== undefined) {
    const w = value.wait;
    if (!isObject(w)) throw bad("'wait' is an object {url, attempts?, intervalMs?}");
    const url = w.url ?? del.url;
    const attempts = w.attempts ?? 20;
    const intervalMs = w.intervalMs ?? 250;
    if (typeof url !== 'string' || !url.includes('{{name}}')) {
      throw bad("'wait.url' is a string with {{name}}");
    }
    if (!Number.isSafeInteger(attempts) || (attempts as number) < 1 || (attempts as number) > 100)
      throw bad("'wait.attempts' is an integer from 1 to 100");
    if (typeof intervalMs !== 'number' || intervalMs < 0 || intervalMs > 60_000)
      throw bad("'wait.intervalMs' is a number from 0 to 60000");
    wait = { url, attempts: attempts as number, intervalMs };
  }
  return { create, delete: del, key, ...(wait ? { wait } : {}) };
}

/**
 * Refuses (bad usage, before any request) a recipe whose URLs, filled in, are not URLs on the
 * target's origin: the target's headers and credentials go nowhere else.
 */
export function checkRecipeUrls(recipe: Recipe, target: URL, file: string): void {
  const collection = `${target.origin}${target.pathname}`;
  const vars = { name: `${MUTATE_PREFIX}000000-b0`, collection };
  const steps: [string, string][] = [
    ['create.url', recipe.create.url],
    ['delete.url', recipe.delete.url],
    ...(recipe.wait ? [['wait.url', recipe.wait.url] as [string, string]] : []),
  ];
  for (const [field, template] of steps) {
    let url: URL;
    try {
      url = new URL(fill(template, vars) as string);
    } catch {
      throw new CliError(`--mutate ${file}: '${field}' is not a URL once filled in`, EXIT.usage);
    }
    if (url.origin !== target.origin) {
      throw new CliError(
        `--mutate ${file}: '${field}' is on ${url.origin}, not on the target's ${target.origin}`,
        EXIT.usage,
      );
    }
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** `{{name}}` and `{{collection}}` replaced in every string of a value. */
function fill(value: unknown, vars: Record<string, string>): unknown {
  if (typeof value === 'string') {
    return value.replace(/\{\{(name|collection)\}\}/g, (_, v: string) => vars[v]!);
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, vars));
  if (isObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, vars)]));
  }
  return value;
}

/** The number of items the check creates before its walk, and in all. */
export const MUTATE_ITEMS = { before: 8, total: 10 };

/**
 * Creates 8 items (b0…b7, adjacent in name order), then walks pages of 2 in the default order;
 * at the first page boundary after the walk has returned b0 and b1, it deletes b0 (behind the
 * cursor) and b7 (ahead of it, unless already returned); at the next, it creates a0 (sorting
 * before b0: behind the cursor) and c0 (after b7: ahead). Passes when
 * no item comes twice and every item present for the whole walk comes exactly once. Deletes
 * everything it created in the end, whatever happened.
 */
export async function mutateCheck(
  client: ConformClient,
  schema: ResourceSchema,
  full: Walk,
  recipe: Recipe,
  warn: (line: string) => void,
): Promise<Check> {
  const name = 'a walk while items are created and deleted around its cursor';
  const run = `${MUTATE_PREFIX}${randomBytes(3).toString('hex')}-`;
  const items = new MutateItems(client, recipe, run, warn);
  const { events } = items;

  try {
    const before: string[] = [];
    for (let i = 0; i < MUTATE_ITEMS.before; i++) before.push(await items.create(`b${i}`));
    const present = new Set([...full.keys, ...before.map((item) => items.keyFor(item))]);
    const [b0, b1] = [items.keyFor(before[0]!), items.keyFor(before[1]!)];
    const b7 = before.at(-1)!;
    const seen = new Map<string, number>();
    // Two page boundaries: a delete behind the cursor and one ahead of it, then an insert behind
    // and one ahead (a delete and an insert behind the cursor at one boundary would hide an
    // offset-paging server's mistake, each undoing the other's shift).
    const plan: (() => Promise<void>)[] = [
      async () => {
        await items.remove(before[0]!);
        present.delete(b0);
        events.push(`deleted ${b0} after the walk had returned it`);
        if (seen.has(items.keyFor(b7))) return;
        await items.remove(b7);
        present.delete(items.keyFor(b7));
        events.push(`deleted ${items.keyFor(b7)} before the walk returned it`);
      },
      async () => {
        const a0 = await items.create('a0');
        events.push(
          `created ${items.keyFor(a0)} (sorting before ${b0}, which the walk had returned)`,
        );
        const c0 = await items.create('c0');
        events.push(`created ${items.keyFor(c0)} (sorting after ${items.keyFor(b7)})`);
      },
    ];
    const order: string[] = [];
    const maxPages = present.size + MUTATE_ITEMS.total + 3;
    let pageToken: string | undefined;
    let pages = 0;
    let firstCurl: string | undefined;
    let held = 0;
    do {
      const answer = await client.list({ pageSize: 2, pageToken });
      pages++;
      held += answer.size;
      if (held > client.limits.maxListingBytes) {
        throw new RunStopped(
          `--mutate: the walk is larger than ${formatBytes(client.limits.maxListingBytes)} (--max-listing-size) after ${pages} pages\n  ${answer.curl}`,
        );
      }
      firstCurl ??= answer.curl;
      if (answer.status < 200 || answer.status > 299) {
        return {
          group: 'mutate',
          name,
          status: 'FAIL',
          cause: `page ${pages} answered ${answer.status}: ${answer.error?.message ?? ''}`,
          details: { events },
          curl: answer.curl,
        };
      }
      for (const item of answer.items) {
        const key = keyOf(schema, item);
        order.push(key);
        seen.set(key, (seen.get(key) ?? 0) + 1);
      }
      pageToken = answer.nextPageToken;
      if (pageToken !== undefined && seen.has(b0) && seen.has(b1) && plan.length > 0) {
        await plan.shift()!();
      }
    } while (pageToken !== undefined && pages < maxPages);
    const twice = [...seen].filter(([, n]) => n > 1).map(([k]) => k);
    const missing = [...present].filter((k) => !seen.has(k));
    const details = { events, pages, pageSize: 2, twice, missing, seen: order.length };
    if (pageToken !== undefined) {
      return {
        group: 'mutate',
        name,
        status: 'FAIL',
        cause: `still a nextPageToken after ${pages} pages`,
        details,
        curl: firstCurl,
      };
    }
    if (twice.length || missing.length) {
      const parts = [];
      if (missing.length)
        parts.push(`missing ${missing.slice(0, 5).join(', ')} (present for the whole walk)`);
      if (twice.length) parts.push(`${twice.slice(0, 5).join(', ')} twice`);
      return {
        group: 'mutate',
        name,
        status: 'FAIL',
        cause: `${parts.join('; ')}; during the walk: ${events.join('; ')}`,
        details,
        curl: firstCurl,
      };
    }
    return {
      group: 'mutate',
      name,
      status: 'PASS',
      cause: `${present.size} items present for the whole walk came once each, no item twice; ${events.length} writes during the walk${events.length < 4 ? ' (of 4: the walk ended sooner, or had returned b7)' : ''}`,
      details,
    };
  } finally {
    // Cleanup: every item this run created, and nothing else (the names carry this run's prefix),
    // also past --max-time (each delete still within --timeout).
    client.beginCleanup();
    for (const item of [...items.live]) {
      try {
        await items.remove(item, true);
      } catch (error) {
        warn(`--mutate: could not delete ${item}: ${(error as Error).message}`);
      }
    }
  }
}

/** The items one `--mutate` run creates and deletes, within the client's request budget. */
class MutateItems {
  /**
   * Items whose create was sent and not refused (4xx other than 408/429 means nothing created),
   * and not yet deleted: each holds one request of the reserve.
   */
  readonly live = new Set<string>();
  /** What the run wrote during the walk, in words. */
  readonly events: string[] = [];
  private readonly collection: string;

  constructor(
    private readonly client: ConformClient,
    private readonly recipe: Recipe,
    private readonly run: string,
    private readonly warn: (line: string) => void,
  ) {
    this.collection = `${client.target.url.origin}${client.target.url.pathname}`;
  }

  private urlOf(template: string, item: string): URL {
    const url = new URL(fill(template, { name: item, collection: this.collection }) as string);
    if (url.origin !== this.client.target.url.origin) {
      throw new RunStopped(`--mutate: ${url.href} is not on ${this.client.target.url.origin}`);
    }
    return url;
  }

  /** The item's key in the listing (the recipe's `key`). */
  keyFor(item: string): string {
    return fill(this.recipe.key, { name: item, collection: this.collection }) as string;
  }

  private async settle(item: string, want: 'there' | 'gone', cleanup = false): Promise<boolean> {
    if (!this.recipe.wait) return true;
    const url = this.urlOf(this.recipe.wait.url, item);
    for (let i = 0; i < this.recipe.wait.attempts; i++) {
      // Cleanup gives up waiting rather than eat into the deletes still to send.
      if (cleanup && this.client.requests + this.client.reserved >= this.client.limits.maxRequests)
        return false;
      const answer = await this.client.send('GET', url, undefined);
      const there = answer.status >= 200 && answer.status < 300;
      const gone = answer.status === 404 || answer.status === 410;
      if ((want === 'there' && there) || (want === 'gone' && gone)) return true;
      await new Promise((resolve) => setTimeout(resolve, this.recipe.wait!.intervalMs));
    }
    return false;
  }
  /** Creates the item `{run}{tag}` and waits until it is there; its name. */
  async create(tag: string): Promise<string> {
    const item = `${this.run}${tag}`;
    const body =
      this.recipe.create.body === undefined
        ? undefined
        : fill(this.recipe.create.body, { name: item, collection: this.collection });
    const url = this.urlOf(this.recipe.create.url, item);
    // Room for the create and its delete, or no create at all.
    if (this.client.requests + this.client.reserved + 2 > this.client.limits.maxRequests) {
      throw new RunStopped(
        `stopped after ${this.client.requests} requests: --max-requests ${this.client.limits.maxRequests} reached (${this.client.reserved} kept for cleanup; no room to create ${item} and delete it)`,
      );
    }
    // Kept back before sending: an answer lost on the way may still have created it.
    this.client.reserved++;
    this.live.add(item);
    const answer = await this.client.send(method(this.recipe.create), url, body);
    if (answer.status < 200 || answer.status > 299) {
      if (
        answer.status >= 400 &&
        answer.status < 500 &&
        answer.status !== 408 &&
        answer.status !== 429
      ) {
        this.live.delete(item);
        this.client.reserved--;
      }
      throw new RunStopped(
        `--mutate: creating ${item} answered ${answer.status}${message(answer.body)}\n  ${answer.curl}`,
      );
    }
    if (!(await this.settle(item, 'there'))) {
      throw new RunStopped(
        `--mutate: ${item} did not appear after ${this.recipe.wait!.attempts} polls`,
      );
    }
    return item;
  }
  /** Deletes an item and waits until it is gone; false when cleanup could not. */
  async remove(item: string, cleanup = false): Promise<boolean> {
    // The request kept back for this delete is spent on it; an unanswered delete (a timeout)
    // keeps the item for the cleanup to try again, within what is left of --max-requests.
    this.client.reserved--;
    let answer: Awaited<ReturnType<ConformClient['send']>>;
    try {
      answer = await this.client.send(
        method(this.recipe.delete),
        this.urlOf(this.recipe.delete.url, item),
        this.recipe.delete.body === undefined
          ? undefined
          : fill(this.recipe.delete.body, { name: item, collection: this.collection }),
      );
    } catch (error) {
      if (!cleanup) this.client.reserved++;
      else this.live.delete(item);
      throw error;
    }
    this.live.delete(item);
    const ok = (answer.status >= 200 && answer.status < 300) || answer.status === 404;
    if (!ok) {
      const line = `--mutate: deleting ${item} answered ${answer.status}${message(answer.body)}\n  ${answer.curl}`;
      if (cleanup) {
        this.warn(line);
        return false;
      }
      throw new RunStopped(line);
    }
    if (!(await this.settle(item, 'gone', cleanup))) {
      const line = `--mutate: ${item} still there after ${this.recipe.wait!.attempts} polls`;
      if (cleanup) {
        this.warn(line);
        return false;
      }
      throw new RunStopped(line);
    }
    return true;
  }
}

const method = (step: WriteStep) => step.method;
const message = (body: unknown) => {
  const m = isObject(body) && isObject(body.error) ? body.error.message : undefined;
  return typeof m === 'string' ? `: ${m.slice(0, 200)}` : '';
};
