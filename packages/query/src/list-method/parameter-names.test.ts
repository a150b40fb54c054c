import { describe, expect, it } from 'vitest';
import type { ListInput } from '../errors.js';
import { parameterName, parameterNames } from './parameter-names.js';

const INPUTS: ListInput[] = [
  'filter',
  'orderBy',
  'pageToken',
  'pageSize',
  'parent',
  'resource',
  'fields',
  'readMask',
  'skip',
];

describe('the one rule that names a list parameter', () => {
  it('names each input as itself in lowerCamel and in snake_case; Compute pages by maxResults', () => {
    const table = (style: 'aip' | 'compute', form: 'json' | 'proto') =>
      INPUTS.map((input) => parameterName(input, style, form)).join(' ');
    expect(table('aip', 'json')).toBe(
      'filter orderBy pageToken pageSize parent resource fields readMask skip',
    );
    expect(table('aip', 'proto')).toBe(
      'filter order_by page_token page_size parent resource fields read_mask skip',
    );
    expect(table('compute', 'json')).toBe(
      'filter orderBy pageToken maxResults parent resource fields readMask skip',
    );
    expect(table('compute', 'proto')).toBe(
      'filter order_by page_token max_results parent resource fields read_mask skip',
    );
  });

  it('reads either form of a name as its input', () => {
    expect(parameterNames('compute', ['filter', 'pageSize'])).toEqual({
      filter: 'filter',
      maxResults: 'pageSize',
      max_results: 'pageSize',
    });
  });
});
