import type { Context } from 'hono';
import { ApiError } from './api-error.js';
import { booleanParam } from './query.js';
import { errorShapeOf } from './refusal-answer.js';
import { requestUrl } from './request-url.js';

// Google's system parameters (cloud.google.com/apis/docs/system-parameters), as Compute Engine's
// discovery document lists them (`parameters`: $.xgafv, access_token, alt, callback, fields,
// key, oauth_token, prettyPrint, quotaUser, uploadType, upload_protocol, userIp), each also
// spelled with the `$` prefix the platform reserves for them. They are read on every Google API
// path before the method's own parameters, and are never list parameters. docs/coverage.md,
// "System parameters", says what each does here; docs/decisions.md, "Query parameters", why.

type Check = (value: string, name: string, c: Context) => void;

const accept: Check = () => {};

/** A refusal of a system parameter's value, in the path's error shape. */
function badValue(c: Context, name: string, message: string): ApiError {
  return new ApiError(400, 'invalidParameter', message, {
    location: name,
    locationType: 'parameter',
    ...(errorShapeOf(c) === 'publisher' ? { status: 'INVALID_ARGUMENT' } : {}),
  });
}

const oneOf =
  (values: readonly string[], why = ''): Check =>
  (value, name, c) => {
    if (value !== '' && !values.includes(value)) {
      throw badValue(
        c,
        name,
        `Invalid value for parameter '${name}': '${value.slice(0, 64)}'. Expected ${values.join(' or ')}.${why}`,
      );
    }
  };

const SYSTEM: Record<string, Check> = {
  // Read by the partial-response step (partial-response.ts) once the method's answer is known.
  fields: accept,
  // JSON is the only format the emulator writes (media and proto are Compute's too, not here).
  alt: oneOf(['json'], ' The emulator answers JSON only.'),
  // The error format version. Measured on other Google APIs it only adds or drops the legacy
  // `errors[]` array, per API; unmeasured on Compute and Play, each keeps its envelope under
  // both values (docs/decisions/0073).
  '.xgafv': oneOf(['1', '2']),
  // Indentation, true by default: applied to the answer by pretty-print.ts.
  prettyPrint: (value, name) => {
    booleanParam(value, name);
  },
  // Identify a caller for quota and keys: there is no quota or API key to apply here.
  quotaUser: accept,
  userIp: accept,
  key: accept,
  // Media uploads: no emulated method takes media, so they change nothing.
  uploadType: accept,
  upload_protocol: accept,
  // Credentials in the URL: read by authentication in place of an Authorization header.
  access_token: accept,
  oauth_token: accept,
  // JSONP is a browser's way round the same-origin policy; not emulated, so said so.
  callback: (_value, name, c) => {
    throw badValue(c, name, `The '${name}' parameter (JSONP) is not supported by the emulator.`);
  },
};

/** The system parameter a query parameter is, `$` prefix removed; undefined when none. */
function systemName(name: string): string | undefined {
  const bare = name.startsWith('$') ? name.slice(1) : name;
  if (name === '$.xgafv') return '.xgafv';
  return Object.hasOwn(SYSTEM, bare) && bare !== '.xgafv' ? bare : undefined;
}

/**
 * The value of a system parameter, under either spelling (`fields` or `$fields`); the first
 * given wins, as for every query parameter.
 *
 * @example
 * ```ts
 * systemParam(c, 'fields'); // 'items(name)' for ?$fields=items(name)
 * ```
 */
export function systemParam(c: Context, name: string): string | undefined {
  for (const [given, value] of requestUrl(c).searchParams) {
    if (systemName(given) === name) return value;
  }
  return undefined;
}

/**
 * Checks a Google API call's query parameters: each is a system parameter (its value checked)
 * or one of the method's own `parameters`; anything else is refused as Google's front end
 * refuses a parameter it cannot bind to the request message (400, `Cannot bind query
 * parameter`), `skip` included (Compute Engine has none).
 *
 * @example
 * ```ts
 * checkQueryParameters(c, ['filter', 'maxResults', 'orderBy', 'pageToken', 'returnPartialSuccess']);
 * ```
 */
export function checkQueryParameters(c: Context, parameters: readonly string[]): void {
  for (const [name, value] of requestUrl(c).searchParams) {
    const system = systemName(name);
    if (system !== undefined) {
      SYSTEM[system]!(value, name, c);
    } else if (!parameters.includes(name)) {
      throw unboundParameter(c, name);
    }
  }
}

/** Google's answer for a query parameter the method's request message has no field for. */
function unboundParameter(c: Context, name: string): ApiError {
  const shown = name.length > 64 ? `${name.slice(0, 64)}…` : name;
  return new ApiError(
    400,
    'badRequest',
    `Invalid JSON payload received. Unknown name "${shown}": Cannot bind query parameter. Field '${shown}' could not be found in request message.`,
    errorShapeOf(c) === 'publisher' ? { status: 'INVALID_ARGUMENT' } : {},
  );
}
