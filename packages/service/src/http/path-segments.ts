import type { MiddlewareHandler } from 'hono';
import { ApiError } from './api-error.js';

/**
 * Compute Engine's patterns for the `project` and `region` path parameters (its discovery
 * document): a project is a project id (`my-project`), a project number, or a domain-scoped id
 * (`example.com:my-project`); a region is an RFC 1035 label (`us-central1`).
 */
export const PROJECT_PATTERN =
  '(?:(?:[-a-z0-9]{1,63}\\.)*(?:[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?):)?(?:[0-9]{1,19}|(?:[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?))';
/** See {@link PROJECT_PATTERN}. */
export const REGION_PATTERN = '[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?';

// Whole-string matches of the two patterns; both are linear (no nested quantifiers on overlaps).
const PROJECT = new RegExp(`^${PROJECT_PATTERN}$`);
const REGION = new RegExp(`^${REGION_PATTERN}$`);
/** Longer segments fail before any pattern runs: a project is at most ~ 253 + 1 + 63 long. */
const MAX_SEGMENT = 320;

/** A path value for an error message: at most 64 characters, control characters escaped. */
function shown(value: string): string {
  const cut = value.length > 64 ? `${value.slice(0, 64)}…` : value;
  return JSON.stringify(cut).slice(1, -1);
}

function check(field: 'project' | 'region', value: string, pattern: RegExp, source: string) {
  if (value.length <= MAX_SEGMENT && pattern.test(value)) return;
  throw new ApiError(
    400,
    'invalidParameter',
    `Invalid value for field '${field}': '${shown(value)}'. Must be a match of regex ${source}`,
    { location: field, locationType: 'parameter' },
  );
}

/**
 * Checks the `project` (and, when present, `region`) path segments of a Compute Engine URL
 * against Compute's patterns, before any route reads or writes state: `a%00b`, a 10 KB name or a
 * `%2F` inside a segment is 400 `invalidParameter` naming the field.
 *
 * @example
 * ```ts
 * app.use('/compute/v1/projects/:project/*', computePathSegments());
 * ```
 */
export function computePathSegments(): MiddlewareHandler {
  return async (c, next) => {
    const project = c.req.param('project');
    if (project !== undefined) check('project', project, PROJECT, PROJECT_PATTERN);
    const region = c.req.param('region');
    if (region !== undefined) check('region', region, REGION, REGION_PATTERN);
    return next();
  };
}
