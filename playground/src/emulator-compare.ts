// Compares the page a running emulator (`listkit serve`) returns with the page computed here
// for the same list call over the same region's rules.
import type { Collection, ListPage, ResourceSchema } from '@listkit/query';
import { h } from './dom.js';
import type { Resource } from './engine.js';
import { buildCollection, type PageQuery } from './paging.js';

export interface CompareTarget {
  url: string;
  project: string;
  region: string;
}

interface ServerPage {
  items: { name?: string }[];
  nextPageToken?: string;
}

/** One list call to the emulator's Compute Engine API. */
export async function fetchServerPage(
  target: CompareTarget,
  query: PageQuery,
  pageToken: string | undefined,
): Promise<ServerPage> {
  const base = target.url.replace(/\/+$/, '');
  const path = `/compute/v1/projects/${encodeURIComponent(target.project)}/regions/${encodeURIComponent(target.region)}/forwardingRules`;
  const params = new URLSearchParams();
  if (query.filter.trim()) params.set('filter', query.filter);
  if (query.orderBy.trim()) params.set('orderBy', query.orderBy);
  params.set('maxResults', String(query.pageSize));
  if (pageToken) params.set('pageToken', pageToken);
  let response: Response;
  try {
    response = await fetch(`${base}${path}?${params}`, {
      headers: { authorization: 'Bearer listkit-playground' },
    });
  } catch {
    throw new UnreachableError(
      `could not reach ${base}: is \`pnpm start\` running there? From another origin than the emulator's own /playground/ page, the browser blocks the request.`,
    );
  }
  const body = (await response.json().catch(() => undefined)) as
    | (ServerPage & { error?: { message?: string } })
    | undefined;
  if (!response.ok) {
    throw new Error(
      `the emulator answered ${response.status}: ${body?.error?.message ?? response.statusText}`,
    );
  }
  return { items: body?.items ?? [], nextPageToken: body?.nextPageToken };
}

/**
 * The rules of one project and region, as the emulator keeps them: by the region in their URL
 * and the project in their selfLink (a rule without a selfLink belongs to any project).
 */
export function inScope(
  resources: readonly Resource[],
  project: string,
  region: string,
): Resource[] {
  return resources.filter((r) => {
    const value = typeof r.region === 'string' ? r.region : '';
    const inRegion = value === region || value.endsWith(`/regions/${region}`);
    const link = typeof r.selfLink === 'string' ? r.selfLink : '';
    const inProject = !link.includes('/projects/') || link.includes(`/projects/${project}/`);
    return inRegion && inProject;
  });
}

/** The emulator could not be reached at all (as opposed to answering with an error). */
export class UnreachableError extends Error {}

/** A comparison session: both sides walk their own page tokens. */
export class Comparison {
  private serverToken: string | undefined;
  private browserToken: string | undefined;
  page = 0;
  done = false;

  private constructor(
    readonly target: CompareTarget,
    readonly query: PageQuery,
    private readonly collection: Collection<Resource>,
  ) {}

  static async start(
    target: CompareTarget,
    query: PageQuery,
    resources: readonly Resource[],
    schema: ResourceSchema,
  ) {
    return new Comparison(
      target,
      query,
      await buildCollection(inScope(resources, target.project, target.region), schema),
    );
  }

  /** Fetches the next page from both sides and renders the comparison. */
  async step(): Promise<HTMLElement> {
    const [server, browser] = await Promise.allSettled([
      fetchServerPage(this.target, this.query, this.serverToken),
      this.collection.list({ ...this.query, pageToken: this.browserToken }),
    ]);
    this.page++;
    if (server.status === 'rejected' && server.reason instanceof UnreachableError) {
      this.done = true;
      return h(
        'div',
        { class: 'verdict differ' },
        h('p', {}, 'The emulator could not be reached, so nothing was compared.'),
        h('p', {}, (server.reason as Error).message),
      );
    }
    if (server.status === 'rejected' || browser.status === 'rejected') {
      this.done = true;
      const why = (r: PromiseSettledResult<unknown>) =>
        r.status === 'rejected' ? (r.reason as Error).message : 'ok';
      const same = server.status === 'rejected' && browser.status === 'rejected';
      const which = server.status === 'rejected' ? 'the emulator' : 'the browser';
      return h(
        'div',
        { class: same ? 'verdict same' : 'verdict differ' },
        h('p', {}, same ? 'Both reject this list call.' : `Only ${which} rejects this list call.`),
        h('p', {}, h('strong', {}, 'Emulator: '), why(server)),
        h('p', {}, h('strong', {}, 'Browser: '), why(browser)),
      );
    }
    this.serverToken = server.value.nextPageToken;
    this.browserToken = browser.value.nextPageToken;
    this.done = !this.serverToken || !this.browserToken;
    const firstNumber = (this.page - 1) * this.query.pageSize + 1;
    return render(this.page, firstNumber, server.value, browser.value);
  }
}

function render(
  page: number,
  firstNumber: number,
  server: ServerPage,
  browser: ListPage<Resource>,
): HTMLElement {
  const serverNames = server.items.map((i) => String(i.name ?? '?'));
  const browserNames = browser.items.map((i) => String(i.name));
  const rows = Math.max(serverNames.length, browserNames.length);
  let same = serverNames.length === browserNames.length;
  const body = h('tbody');
  for (let i = 0; i < rows; i++) {
    const a = serverNames[i];
    const b = browserNames[i];
    const equal = a === b;
    if (!equal) same = false;
    body.append(
      h(
        'tr',
        { class: equal ? '' : 'mismatch' },
        h('td', {}, String(firstNumber + i)),
        h('td', {}, a ?? '—'),
        h('td', {}, b ?? '—'),
        h('td', {}, equal ? 'same' : 'different'),
      ),
    );
  }
  const nextSame = !server.nextPageToken === !browser.nextPageToken;
  const verdict = same && nextSame;
  return h(
    'div',
    {},
    h(
      'p',
      { class: verdict ? 'verdict same' : 'verdict differ' },
      `Page ${page}: `,
      verdict
        ? `the same ${rows} item${rows === 1 ? '' : 's'} in the same order; ${server.nextPageToken ? 'both have a next page' : 'neither has a next page'}.`
        : `the pages differ${nextSame ? '' : ` (a next page: emulator ${server.nextPageToken ? 'yes' : 'no'}, browser ${browser.nextPageToken ? 'yes' : 'no'})`}.`,
    ),
    h(
      'table',
      { class: 'compare' },
      h('caption', { class: 'sr-only' }, `Page ${page} from the emulator and from the browser`),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, '#'),
          h('th', { scope: 'col' }, 'Emulator'),
          h('th', { scope: 'col' }, 'Browser'),
          h('th', { scope: 'col' }, ''),
        ),
      ),
      body,
    ),
  );
}
