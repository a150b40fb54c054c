// The list call the playground evaluates, written the ways people make it for real: the REST
// URL (Compute Engine's forwardingRules.list, or any collection's AIP-132 List), a curl command,
// and, for Compute only, a gcloud command.
import type { ListCallStyle } from './datasets/dataset.js';
import type { PageQuery } from './paging.js';

/** The REST URL of any collection's list call, with its page-size parameter. */
export function collectionUrl(style: ListCallStyle, query: PageQuery): string {
  const params = new URLSearchParams();
  if (query.filter.trim()) params.set('filter', query.filter);
  if (query.orderBy.trim()) params.set('orderBy', query.orderBy);
  params.set(style.pageSizeParam, String(query.pageSize));
  return `${style.origin}${style.path}?${params}`;
}

/** A curl command for a REST URL, authenticated by gcloud's access token. */
export function curlFor(url: string): string {
  return [
    'curl -sS',
    '-H "Authorization: Bearer $(gcloud auth print-access-token)"',
    shellQuote(url),
  ].join(' \\\n  ');
}

export interface ListCallTarget {
  /** Without a trailing slash: https://compute.googleapis.com, or an emulator's origin. */
  origin: string;
  project: string;
  region: string;
}

/** The REST URL of `forwardingRules.list` with filter, orderBy and maxResults. */
export function restUrl(target: ListCallTarget, query: PageQuery): string {
  const params = new URLSearchParams();
  if (query.filter.trim()) params.set('filter', query.filter);
  if (query.orderBy.trim()) params.set('orderBy', query.orderBy);
  params.set('maxResults', String(query.pageSize));
  const path = `/compute/v1/projects/${encodeURIComponent(target.project)}/regions/${encodeURIComponent(target.region)}/forwardingRules`;
  return `${target.origin}${path}?${params}`;
}

/** Quotes for a POSIX shell: one single-quoted word. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** A curl command for the REST call, authenticated by gcloud's access token. */
export function curlCommand(target: ListCallTarget, query: PageQuery): string {
  return curlFor(restUrl(target, query));
}

/**
 * The gcloud command. gcloud sends `--filter` to the server when it can and applies the rest
 * itself; `--page-size` is maxResults and `--sort-by` sorts client side (gcloud has no orderBy).
 */
export function gcloudCommand(target: ListCallTarget, query: PageQuery): string {
  const parts = [
    'gcloud compute forwarding-rules list',
    `--project=${shellQuote(target.project)}`,
    `--regions=${shellQuote(target.region)}`,
  ];
  if (query.filter.trim()) parts.push(`--filter=${shellQuote(query.filter)}`);
  const sort = query.orderBy.trim();
  if (sort) {
    const [field, direction] = sort.split(/\s+/);
    parts.push(`--sort-by=${shellQuote(direction === 'desc' ? `~${field}` : (field ?? ''))}`);
  }
  parts.push(`--page-size=${query.pageSize}`);
  return parts.join(' \\\n  ');
}
