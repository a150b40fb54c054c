/**
 * A Compute Engine Operation as it is sent on the wire. Answers carry no `creationTimestamp`: the
 * field is deprecated and recorded real answers never carry it (docs/decisions.md).
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
  region: string;
  selfLink: string;
  clientOperationId?: string;
  error?: { errors: { code: string; message: string; location?: string }[] };
  httpErrorStatusCode?: number;
  httpErrorMessage?: string;
};
