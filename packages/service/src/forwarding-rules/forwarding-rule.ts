/**
 * A forwarding rule as Compute Engine returns it (JSON): the resource type every compute module
 * shares (the sample-data generator produces it; it does not own it).
 *
 * @example
 * ```ts
 * const rule: ForwardingRuleJson = { name: 'web', IPProtocol: 'TCP' };
 * ```
 */
export type ForwardingRuleJson = Record<string, unknown> & { name: string };
