/**
 * A Compute Engine Operation as it is sent on the wire. Answers carry no `creationTimestamp`: the
 * field is deprecated and recorded real answers never carry it (decision 0030,
 * docs/decisions/0030-json-answers-say-their-charset-operations-carry-no.md).
 *
 * @example
 * ```ts
 * const [response] = await client.insert({ project, region, forwardingRuleResource });
 * const operation = response.latestResponse as OperationJson; // status, targetLink, operationType, …
 * ```
 */
export type OperationJson = {
  kind: 'compute#operation';
  id: string;
  name: string;
  /**
   * The creation time the list engine and the stores order by; never in an answer (the routes
   * answer through {@link operationAnswer}, which removes it).
   */
  creationTimestamp?: string;
  operationType: string;
  targetLink: string;
  targetId: string;
  status: 'PENDING' | 'RUNNING' | 'DONE';
  progress: number;
  user: string;
  insertTime: string;
  startTime: string;
  endTime?: string;
  /** The region's URL; absent on a global operation (`selfLink` and `targetLink` say global). */
  region?: string;
  selfLink: string;
  clientOperationId?: string;
  error?: { errors: { code: string; message: string; location?: string }[] };
  httpErrorStatusCode?: number;
  httpErrorMessage?: string;
};

/**
 * What a failed operation records (Compute's `error.errors[]` entry and `httpErrorStatusCode`).
 *
 * @example
 * ```ts
 * const failure: OperationFailure = { status: 400, code: 'INVALID', message: 'Invalid value …' };
 * ```
 */
export interface OperationFailure {
  status: number;
  code: string;
  message: string;
  location?: string;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'BAD REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT FOUND',
  409: 'CONFLICT',
  412: 'PRECONDITION FAILED',
  413: 'PAYLOAD TOO LARGE',
  429: 'TOO MANY REQUESTS',
  500: 'INTERNAL SERVER ERROR',
  501: 'NOT IMPLEMENTED',
  503: 'SERVICE UNAVAILABLE',
  504: 'GATEWAY TIMEOUT',
};

/**
 * Compute's `httpErrorMessage` of a failed operation for its status: `BAD REQUEST`, `NOT FOUND`, …
 *
 * @example
 * ```ts
 * httpErrorMessageOf(404); // 'NOT FOUND'
 * ```
 */
export function httpErrorMessageOf(status: number): string {
  return STATUS_TEXT[status] ?? 'ERROR';
}
