import type { ListInput, ListkitErrorCode, Problem } from '../errors.js';
import { type ListStyle, styleOf } from './list-style.js';
import { parameterName } from './parameter-names.js';
import { ListParameterError } from './read-list-request.js';

/**
 * The canonical codes {@link toGoogleError} answers with (google.rpc.Code), by name.
 *
 * @example
 * ```ts
 * const status: GoogleStatus = toGoogleError(error).status; // 'INVALID_ARGUMENT'
 * ```
 */
export type GoogleStatus = 'INVALID_ARGUMENT' | 'DEADLINE_EXCEEDED' | 'INTERNAL';

/**
 * A `google.rpc.BadRequest` detail in its JSON form: one violation per problem found.
 *
 * @example
 * ```ts
 * const detail: BadRequestDetail = {
 *   '@type': 'type.googleapis.com/google.rpc.BadRequest',
 *   fieldViolations: [{ field: 'filter', description: "unknown field 'nmae' (1:1)", reason: 'UNKNOWN_FIELD' }],
 * };
 * ```
 */
export interface BadRequestDetail {
  '@type': 'type.googleapis.com/google.rpc.BadRequest';
  fieldViolations: { field: string; description: string; reason: string }[];
}

/**
 * A `google.rpc.ErrorInfo` detail in its JSON form (AIP-193 asks every error for one).
 *
 * @example
 * ```ts
 * const detail: ErrorInfoDetail = {
 *   '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
 *   reason: 'UNKNOWN_FIELD',
 *   domain: 'library.example.com',
 *   metadata: { field: 'filter' },
 * };
 * ```
 */
export interface ErrorInfoDetail {
  '@type': 'type.googleapis.com/google.rpc.ErrorInfo';
  reason: string;
  domain: string;
  metadata: Record<string, string>;
}

/**
 * An error in Google's error model (google.rpc.Status, AIP-193): the HTTP status and JSON body
 * a REST API answers, and the gRPC code (also Connect's `Code`) an RPC API answers.
 *
 * @example
 * ```ts
 * const e: GoogleError = toGoogleError(error);
 * res.status(e.httpStatus).json(e.body);                      // HTTP
 * throw new ConnectError(e.message, e.grpcCode as Code);     // Connect
 * ```
 */
export interface GoogleError {
  /** 400, 504 or 500. */
  httpStatus: number;
  /** The google.rpc.Code: 3 (INVALID_ARGUMENT), 4 (DEADLINE_EXCEEDED) or 13 (INTERNAL). */
  grpcCode: number;
  status: GoogleStatus;
  message: string;
  details: (BadRequestDetail | ErrorInfoDetail)[];
  /** The JSON body of an HTTP answer: `{ error: { code, message, status, details } }`. */
  body: {
    error: {
      code: number;
      message: string;
      status: GoogleStatus;
      details: (BadRequestDetail | ErrorInfoDetail)[];
    };
  };
}

/**
 * Options of {@link toGoogleError}.
 *
 * @example
 * ```ts
 * toGoogleError(error, { fieldNames: 'proto', style: 'compute', domain: 'compute.googleapis.com' });
 * ```
 */
export interface GoogleErrorOptions {
  /**
   * How violations name the field: `json` (the default: `orderBy`, `pageSize`, for REST
   * answers) or `proto` (`order_by`, `page_size`, the request message's field names, as gRPC
   * answers name them).
   */
  fieldNames?: 'json' | 'proto';
  /** `compute` names the page size `maxResults`; `aip` (the default) `pageSize`. */
  style?: ListStyle;
  /** @deprecated Use `style`; read only when `style` is absent. */
  dialect?: ListStyle;
  /** ErrorInfo's domain: the service's name (default `listkit`). */
  domain?: string;
}

const STATUS: Record<GoogleStatus, { http: number; grpc: number }> = {
  INVALID_ARGUMENT: { http: 400, grpc: 3 },
  DEADLINE_EXCEEDED: { http: 504, grpc: 4 },
  INTERNAL: { http: 500, grpc: 13 },
};

/** What a ListkitError from any copy of the package looks like (CommonJS entries bundle their own). */
interface ListkitErrorLike {
  name: 'ListkitError';
  code: ListkitErrorCode;
  message: string;
  problems: readonly Problem[];
}

function isListkitError(error: unknown): error is ListkitErrorLike {
  const e = error as Partial<ListkitErrorLike> | null;
  return (
    error instanceof Error &&
    e?.name === 'ListkitError' &&
    typeof e.code === 'string' &&
    Array.isArray(e.problems)
  );
}

function isListParameterError(error: unknown): error is ListParameterError {
  return (
    error instanceof ListParameterError ||
    (error instanceof Error &&
      error.name === 'ListParameterError' &&
      typeof (error as Partial<ListParameterError>).parameter === 'string')
  );
}

function answer(
  status: GoogleStatus,
  message: string,
  details: (BadRequestDetail | ErrorInfoDetail)[],
): GoogleError {
  const { http, grpc } = STATUS[status];
  return {
    httpStatus: http,
    grpcCode: grpc,
    status,
    message,
    details,
    body: { error: { code: http, message, status, details } },
  };
}

const upper = (code: string) => code.toUpperCase();

/**
 * Any error of a list call in Google's error model (AIP-193). A `ListkitError` is
 * INVALID_ARGUMENT (400, gRPC 3) with a `google.rpc.BadRequest` detail whose field violations
 * name the input of each problem (`filter`, `orderBy`, `pageToken`, `pageSize`) and an
 * `ErrorInfo` whose reason is the error code in UPPER_SNAKE_CASE; a query that ran out of time
 * (`query_timeout`) is DEADLINE_EXCEEDED (504, gRPC 4), which clients may retry. A
 * {@link ListParameterError} is INVALID_ARGUMENT naming the parameter. Anything else is INTERNAL
 * (500, gRPC 13) with a fixed message: its own message may hold internals and is not repeated
 * (log it yourself).
 *
 * @example
 * ```ts
 * app.get('/v1/books', async (req, res) => {
 *   try {
 *     res.json(await runListRequest(req.query, books, { itemsField: 'books' }));
 *   } catch (error) {
 *     const e = toGoogleError(error);
 *     res.status(e.httpStatus).json(e.body);
 *     // 400 { error: { code: 400, message: "Invalid filter: unknown field 'nmae' …",
 *     //   status: 'INVALID_ARGUMENT', details: [{ '@type': '…google.rpc.BadRequest',
 *     //   fieldViolations: [{ field: 'filter', description: …, reason: 'UNKNOWN_FIELD' }] }, …] } }
 *   }
 * });
 * ```
 */
export function toGoogleError(error: unknown, options: GoogleErrorOptions = {}): GoogleError {
  const domain = options.domain ?? 'listkit';
  const style = styleOf(options);
  const fieldOf = (input: ListInput) => parameterName(input, style, options.fieldNames ?? 'json');
  if (isListkitError(error)) {
    const problems = error.problems.length > 0 ? error.problems : [];
    const first = problems[0];
    const field = first ? fieldOf(first.input) : 'filter';
    const info: ErrorInfoDetail = {
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: upper(error.code),
      domain,
      metadata: { field },
    };
    if (error.code === 'query_timeout') {
      return answer('DEADLINE_EXCEEDED', `The list query timed out: ${error.message}`, [info]);
    }
    const violations = problems.map((p) => ({
      field: fieldOf(p.input),
      description:
        p.input === 'filter' ||
        p.input === 'orderBy' ||
        p.input === 'fields' ||
        p.input === 'readMask'
          ? `${p.message} (${p.line}:${p.column})`
          : p.message,
      reason: upper(p.code),
    }));
    const described = violations[0]?.description ?? error.message;
    return answer('INVALID_ARGUMENT', `Invalid ${field}: ${described}`, [
      { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: violations },
      info,
    ]);
  }
  if (isListParameterError(error)) {
    return answer('INVALID_ARGUMENT', error.message, [
      {
        '@type': 'type.googleapis.com/google.rpc.BadRequest',
        fieldViolations: [
          { field: error.parameter, description: error.message, reason: upper(error.code) },
        ],
      },
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: upper(error.code),
        domain,
        metadata: { field: error.parameter },
      },
    ]);
  }
  return answer('INTERNAL', 'Internal error encountered.', []);
}
