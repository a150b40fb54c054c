// The HTTP side of `listkit conform`: list calls against the one target URL, within a request
// budget, a rate and a per-request timeout, each reproducible as a curl command.

import type { ListStyle } from '@listkit/query/list-method';

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
}

/** One list answer. */
export interface ListAnswer {
  status: number;
  /** The items of a 2xx answer. */
  items: Record<string, unknown>[];
  nextPageToken?: string;
  /** The error status (`INVALID_ARGUMENT`…) and message of a non-2xx answer, as far as known. */
  error?: { status?: string; message: string };
  curl: string;
}

/** The run cannot go on: the budget is spent, or the target cannot be reached. */
export class RunStopped extends Error {}

export interface ClientLimits {
  maxRequests: number;
  /** Requests per second at most; undefined: no limit. */
  rate?: number;
  timeoutMs: number;
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

  constructor(
    readonly target: Target,
    readonly limits: ClientLimits,
  ) {}

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
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      this.nextAt = Math.max(this.nextAt, Date.now()) + 1000 / this.limits.rate;
    }
    this.requests++;
  }

  /**
   * A request other than a list call (`--mutate`: create, delete, read one item), with the
   * target's headers. A delete for cleanup gives its request back to the reserve first.
   */
  async send(method: string, url: URL, body: unknown): Promise<SendAnswer> {
    await this.admit(this.reserved);
    const curl = this.curlOf(url, method, body);
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        method,
        headers: {
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...this.target.headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        redirect: 'manual',
        signal: AbortSignal.timeout(this.limits.timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      const cause = (error as Error).name === 'TimeoutError' ? 'timed out' : String(error);
      throw new RunStopped(`${method} ${url.href}: ${cause}\n  ${curl}`);
    }
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, body: parsed, curl };
  }

  async list(params: ListParams): Promise<ListAnswer> {
    await this.admit(this.reserved);
    const url = this.url(params);
    const curl = this.curl(params);
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        headers: { accept: 'application/json', ...this.target.headers },
        redirect: 'manual',
        signal: AbortSignal.timeout(this.limits.timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      const cause = (error as Error).name === 'TimeoutError' ? 'timed out' : String(error);
      throw new RunStopped(`GET ${url.href}: ${cause}\n  ${curl}`);
    }
    let body: unknown;
    try {
      body = text === '' ? {} : JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (response.status < 200 || response.status > 299) {
      const error = (body as { error?: { status?: string; message?: string } } | undefined)?.error;
      return {
        status: response.status,
        items: [],
        error: {
          status: typeof error?.status === 'string' ? error.status : undefined,
          message: typeof error?.message === 'string' ? error.message : text.slice(0, 200),
        },
        curl,
      };
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new RunStopped(`GET ${url.href}: ${response.status} but not a JSON object\n  ${curl}`);
    }
    const record = body as Record<string, unknown>;
    const items = this.itemsOf(record, url);
    const token = record.nextPageToken;
    return {
      status: response.status,
      items,
      ...(typeof token === 'string' && token !== '' ? { nextPageToken: token } : {}),
      curl,
    };
  }

  private itemsOf(body: Record<string, unknown>, url: URL): Record<string, unknown>[] {
    let field = this.target.style === 'compute' ? 'items' : this.target.itemsField;
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
