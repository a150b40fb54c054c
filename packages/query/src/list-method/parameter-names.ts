import type { ListInput } from '../errors.js';
import type { ListStyle } from './list-style.js';

// The one rule that names a list parameter, read by the request readers and by the errors that
// name a parameter: a parameter is named as its input, but for Compute Engine's page size,
// `maxResults`; its JSON form (REST queries, JSON answers) is that name in lowerCamel, its proto
// form (request messages, gRPC answers) the same name in snake_case. A request may give either.

/**
 * What a parameter is called: `json` lowerCamel (`orderBy`), `proto` snake_case (`order_by`).
 */
export type ParameterForm = 'json' | 'proto';

const snakeCase = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The name of the parameter that carries `input` in a style, in one form.
 *
 * @example
 * ```ts
 * parameterName('pageSize', 'compute', 'proto'); // 'max_results'
 * ```
 */
export function parameterName(input: ListInput, style: ListStyle, form: ParameterForm): string {
  const name = style === 'compute' && input === 'pageSize' ? 'maxResults' : input;
  return form === 'json' ? name : snakeCase(name);
}

/**
 * Every name a request may give these inputs under in a style (lowerCamel, then snake_case,
 * input by input), each with the input it carries.
 *
 * @example
 * ```ts
 * parameterNames('compute', ['orderBy', 'pageSize']);
 * // { orderBy: 'orderBy', order_by: 'orderBy', maxResults: 'pageSize', max_results: 'pageSize' }
 * ```
 */
export function parameterNames<I extends ListInput>(
  style: ListStyle,
  inputs: readonly I[],
): Record<string, I> {
  const names: Record<string, I> = {};
  for (const input of inputs) {
    for (const form of ['json', 'proto'] as const) names[parameterName(input, style, form)] = input;
  }
  return names;
}
