// The HTTP side of `listkit conform`: list calls against the one target URL, within a request
// budget, a rate, a per-request timeout and an overall deadline, each response read under a size
// cap and checked for nesting before it is parsed, each call reproducible as a curl command.

import type { ListStyle } from '@listkit/query/list-method';
import { scanJsonNesting } from '../json-nesting.js';
import { CapExceeded, formatBytes, readCapped } from '../read-capped.js';
import { isTimeout, networkCause } from './network-cause.js';

export interface Target {
  /** The collection URL as given (its own query parameters are kept on every request). */
  url: URL;
  /** The paging style of the target: `compute` (maxResults, items) or `aip` (pageSize). */
  style: ListStyle;
  /** AIP: the response field holding the items (default: the answer's one array field). */
  itemsField?: string;
  /** Request headers, by name. */
  headers: Record<string, string>;
  /** The environment variable holding the bearer token, shown as such in curl commands. */
  bearerEnv?: string;
}

export interface ListParams {
  filter?: string;
  orderBy?: string;
  pageSize?: number;
  pageToken?: string;
  /** The `fields` system parameter: a partial response (AIP-157). */
  fields?: string;
  /** AIP-158's `skip`: items to skip before the page. */
  skip?: number;
}

/** One list answer. */
export interface ListAnswer {
  status: number;
  /** The items of a 2xx answer. */
  items: Record<string, unknown>[];
  nextPageToken?: string;
  /** The top-level field names of a 2xx answer (what a partial response left in it). */
  fieldNames: string[];
  /** The error status (`INVALID_ARGUMENT`…) and message of a non-2xx answer, as far as known. */
  error?: { status?: string; message: string };
  curl: string;
  /**
   * What holding the body costs, as --max-listing-size counts it: its bytes, plus
   * `BYTES_PER_CONTAINER` for each object or array in it.
   */
  size: number;
}

/**
 * Bytes counted for each object or array of a body held, beyond its text: once parsed, an empty
 * `{}` (2 bytes of text) takes some 60 bytes, so a listing cap on text alone would not bound
 * the memory of a listing made of tiny objects.
 */
export const BYTES_PER_CONTAINER = 16;

/** The run cannot go on: the budget is spent, or the target cannot be reached. */
export class RunStopped extends Error {}

export interface ClientLimits {
  maxRequests: number;
  /** Requests per second at most; undefined: no limit. */
  rate?: number;
  timeoutMs: number;
  /** The largest body read (after inflating a Content-Encoding), in bytes. */
  maxResponseBytes: number;
  /** The whole run's time, from the client's creation, in milliseconds (--max-time). */
  maxTimeMs: number;
  /** What one walk of every page may hold, counted as `ListAnswer.size` (--max-listing-size). */
  maxListingBytes: number;
  /** The deepest nesting of arrays and objects a response may have (--max-depth). */
  maxDepth: number;
}

/** One write or read of a single item (`--mutate`). */
export interface SendAnswer {
  status: number;
  /** The parsed JSON body, or undefined when none or not JSON. */
  body: unknown;
  curl: string;
}

export class ConformClient {
  requests = 0;
  /**
   * Requests kept back for cleanup (`--mutate`: one delete per item created and not yet
   * deleted): other requests stop the run before they would eat into them.
   */
  reserved = 0;
  private nextAt = 0;
  private readonly deadline: number;
  /** Cleanup (`--mutate`'s deletes) goes on past the deadline, each request within --timeout. */
  private cleaning = false;

  constructor(
    readonly target: Target,
    readonly limits: ClientLimits,
  ) {
    this.deadline = Date.now() + limits.maxTimeMs;
  }

  /** From now on the deadline no longer stops requests: the run is cleaning up after itself. */
  beginCleanup(): void {
    this.cleaning = true;
  }

  private deadlineReached(): RunStopped {
    return new RunStopped(
      `stopped after ${this.requests} requests: --max-time ${this.limits.maxTimeMs / 1000} reached (raise it, or lower --max-filters)`,
    );
  }

  /** The URL of one list call: the target URL with the list parameters set. */
  url(params: ListParams): URL {
    const url = new URL(this.target.url);
    const set = (name: string, value: string | undefined) => {
      if (value !== undefined) url.searchParams.set(name, value);
    };
    set('filter', params.filter || undefined);
    set('orderBy', params.orderBy || undefined);
    set(
      this.target.style === 'compute' ? 'maxResults' : 'pageSize',
      params.pageSize === undefined ? undefined : String(params.pageSize),
    );
    set('pageToken', params.pageToken);
    set('fields', params.fields);
    set('skip', params.skip === undefined ? undefined : String(params.skip));
    return url;
  }

  /** A curl command for the call, with secrets left out. */
  curl(params: ListParams): string {
    return this.curlOf(this.url(params));
  }

  private curlOf(url: URL, method = 'GET', body?: unknown): string {
    const parts = ['curl', '-sS'];
    if (method !== 'GET') parts.push('-X', method);
    if (this.target.bearerEnv) {
      parts.push('-H', `"Authorization: Bearer $${this.target.bearerEnv}"`);
    }
    for (const [name, value] of Object.entries(this.target.headers)) {
      if (this.target.bearerEnv && name.toLowerCase() === 'authorization') continue;
      parts.push('-H', shellQuote(`${name}: ${secret(name) ? '<redacted>' : value}`));
    }
    if (body !== undefined) {
      parts.push('-H', shellQuote('Content-Type: application/json'));
      parts.push('--data', shellQuote(JSON.stringify(body)));
    }
    parts.push(shellQuote(url.href));
    return parts.join(' ');
  }

  /** Counts one request against --max-requests (and the reserve), waiting for --rate. */
  private async admit(reserved: number): Promise<void> {
    if (this.requests + reserved >= this.limits.maxRequests) {
      throw new RunStopped(
        `stopped after ${this.requests} requests: --max-requests ${this.limits.maxRequests} reached${
          reserved > 0 ? ` (${reserved} kept for cleanup)` : ''
        } (raise it, or lower --max-filters)`,
      );
    }
    if (this.limits.rate) {
      const wait = this.nextAt - Date.now();
      if (wait > 0 && !this.cleaning && Date.now() + wait >= this.deadline) {
        throw this.deadlineReached();
      }
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      this.nextAt = Math.max(this.nextAt, Date.now()) + 1000 / this.limits.rate;
    }
    if (!this.cleaning && Date.now() >= this.deadline) throw this.deadlineReached();
    this.requests++;
  }

  /**
   * One request and its whole body, within --timeout and the deadline (whichever comes first),
   * the body under --max-response-size; any failure stops the run with its cause named.
   */
  private async exchange(
    method: string,
    url: URL,
    init: RequestInit,
    curl: string,
  ): Promise<{ status: number; text: string }> {
    const left = this.cleaning ? Number.POSITIVE_INFINITY : this.deadline - Date.now();
    const byDeadline = left < this.limits.timeoutMs;
    const where = `${method} ${url.href}`;
    let response: Response | undefined;
    try {
      response = await fetch(url, {
        ...init,
        method,
        redirect: 'manual',
        signal: AbortSignal.timeout(Math.max(1, Math.min(this.limits.timeoutMs, left))),
      });
      const body = response.body
        ? await readCapped(
            // Node's web streams are async iterable; the DOM typings do not say so.
            response.body as unknown as AsyncIterable<Uint8Array>,
            this.limits.maxResponseBytes,
          )
        : undefined;
      return { status: response.status, text: body?.toString('utf8') ?? '' };
    } catch (error) {
      if (isTimeout(error) && byDeadline) throw this.deadlineReached();
      throw new RunStopped(`${where}: ${this.failure(error, response)}\n  ${curl}`);
    }
  }

  /** Why a request failed, in words. */
  private failure(error: unknown, response: Response | undefined): string {
    if (error instanceof CapExceeded) {
      const encoding = response?.headers.get('content-encoding');
      return `a response body larger than ${formatBytes(error.limit)} (--max-response-size)${
        encoding && encoding !== 'identity' ? `, inflated from ${encoding}` : ''
      }`;
    }
    if (isTimeout(error)) return `timed out (--timeout ${this.limits.timeoutMs / 1000})`;
    return networkCause(error);
  }

  /**
   * A request other than a list call (`--mutate`: create, delete, read one item), with the
   * target's headers. A delete for cleanup gives its request back to the reserve first.
   */
  async send(method: string, url: URL, body: unknown): Promise<SendAnswer> {
    await this.admit(this.reserved);
    const curl = this.curlOf(url, method, body);
    const { status, text } = await this.exchange(
      method,
      url,
      {
        headers: {
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...this.target.headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      },
      curl,
    );
    let parsed: unknown;
    try {
      // Only read for its error message: JSON.parse does not recurse, so any depth is safe here.
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status, body: parsed, curl };
  }

  async list(params: ListParams): Promise<ListAnswer> {
    await this.admit(this.reserved);
    const url = this.url(params);
    const curl = this.curl(params);
    const { status, text } = await this.exchange(
      'GET',
      url,
      { headers: { accept: 'application/json', ...this.target.headers } },
      curl,
    );
    const nesting = scanJsonNesting(text, this.limits.maxDepth);
    const size = Buffer.byteLength(text) + BYTES_PER_CONTAINER * nesting.containers;
    const ok = status >= 200 && status <= 299;
    if (ok && nesting.tooDeep) {
      const { line, column } = nesting.tooDeep;
      throw new RunStopped(
        `GET ${url.href}: nested too deep: more than ${this.limits.maxDepth} levels (--max-depth) at line ${line}, column ${column} of the body\n  ${curl}`,
      );
    }
    let body: unknown;
    try {
      body = text === '' ? {} : JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (!ok) {
      const error = (body as { error?: { status?: string; message?: string } } | undefined)?.error;
      return {
        status,
        items: [],
        fieldNames: [],
        error: {
          status: typeof error?.status === 'string' ? error.status : undefined,
          message: typeof error?.message === 'string' ? error.message : text.slice(0, 200),
        },
        curl,
        size,
      };
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new RunStopped(`GET ${url.href}: ${status} but not a JSON object\n  ${curl}`);
    }
    const record = body as Record<string, unknown>;
    const items = this.itemsOf(record, url);
    const token = record.nextPageToken;
    return {
      status,
      items,
      ...(typeof token === 'string' && token !== '' ? { nextPageToken: token } : {}),
      fieldNames: Object.keys(record),
      curl,
      size,
    };
  }

  /**
   * The answer's field holding the items: `items` in the Compute style; in the AIP style the one
   * given or seen (undefined before any page named it).
   */
  get itemsField(): string | undefined {
    return this.target.style === 'compute' ? 'items' : this.target.itemsField;
  }

  private itemsOf(body: Record<string, unknown>, url: URL): Record<string, unknown>[] {
    let field = this.itemsField;
    if (field === undefined) {
      const arrays = Object.keys(body).filter((k) => Array.isArray(body[k]));
      if (arrays.length > 1) {
        throw new RunStopped(
          `GET ${url.href}: the answer has several arrays (${arrays.join(', ')}): name one with --items-field`,
        );
      }
      field = arrays[0];
      // An empty AIP page may leave the plural field out: remember it once seen.
      if (field !== undefined) this.target.itemsField = field;
    }
    const items = field === undefined ? undefined : body[field];
    if (items === undefined) return [];
    if (!Array.isArray(items) || items.some((i) => i === null || typeof i !== 'object')) {
      throw new RunStopped(`GET ${url.href}: '${field}' is not an array of objects`);
    }
    return items as Record<string, unknown>[];
  }
}

const secret = (name: string) =>
  /authorization|cookie|token|secret|key|password/i.test(name) && !/^accept/i.test(name);

export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
