import { JSON_CONTENT_TYPE } from './json-content-type.js';

/**
 * One entry of `error.errors[]` in Google's error envelope.
 *
 * @example
 * ```ts
 * const item: ErrorItem = new ApiError(400, 'invalid', 'Bad filter', { location: 'filter' }).item();
 * // { domain: 'global', reason: 'invalid', message: 'Bad filter', location: 'filter' }
 * ```
 */
export interface ErrorItem {
  domain: string;
  reason: string;
  message: string;
  location?: string;
  locationType?: string;
}

/**
 * An error answer in the Google API envelope, exactly as Compute Engine sends it:
 * `{"error":{"code","message","errors":[{"domain","message","reason"}]}}`, with no `status`
 * field (the Node client then derives its error code from the HTTP status, as against Google).
 *
 * @example
 * ```ts
 * throw new ApiError(404, 'notFound', "The resource 'projects/p/regions/r/forwardingRules/x' was not found");
 * ```
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
    readonly extra: Partial<Pick<ErrorItem, 'location' | 'locationType' | 'domain'>> & {
      /**
       * The canonical status name (`NOT_FOUND`, …). Compute Engine omits it; most other Google
       * APIs, Android Publisher among them, send it.
       */
      status?: string;
    } = {},
  ) {
    super(message);
  }

  /** The `error.errors[]` entry. */
  item(): ErrorItem {
    return {
      domain: this.extra.domain ?? 'global',
      reason: this.reason,
      message: this.message,
      ...pick(this.extra),
    };
  }

  /** The JSON body of the answer. */
  body(): { error: { code: number; message: string; errors: ErrorItem[]; status?: string } } {
    const error = { code: this.status, message: this.message, errors: [this.item()] };
    return { error: this.extra.status ? { ...error, status: this.extra.status } : error };
  }

  /** The HTTP answer. */
  toResponse(): Response {
    return new Response(JSON.stringify(this.body()), {
      status: this.status,
      headers: { 'content-type': JSON_CONTENT_TYPE },
    });
  }
}

function pick(extra: ApiError['extra']): Partial<ErrorItem> {
  const out: Partial<ErrorItem> = {};
  if (extra.location) out.location = extra.location;
  if (extra.locationType) out.locationType = extra.locationType;
  return out;
}

/** Shorthands for the errors Compute Engine sends. */
export const errors = {
  invalid: (message: string, location?: string) =>
    new ApiError(400, 'invalid', message, location ? { location } : {}),
  badRequest: (message: string) => new ApiError(400, 'badRequest', message),
  notFound: (message: string) => new ApiError(404, 'notFound', message),
  alreadyExists: (message: string) => new ApiError(409, 'alreadyExists', message),
  conditionNotMet: (message: string) => new ApiError(412, 'conditionNotMet', message),
};
