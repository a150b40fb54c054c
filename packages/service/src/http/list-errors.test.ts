import { ListkitError } from '@listkit/query';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error.js';
import { listErrorToApiError } from './list-errors.js';

describe('listErrorToApiError', () => {
  it('answers a list query that ran out of time as a 504 deadlineExceeded, not a 400', () => {
    const timeout = ListkitError.of(
      'query_timeout',
      'the list query took longer than 5000 ms',
      { start: 0, end: 0 },
      '',
    );
    const mapped = listErrorToApiError(timeout, { filter: 'name = "a"' });
    expect(mapped).toBeInstanceOf(ApiError);
    const body = (mapped as ApiError).body();
    expect(body.error.code).toBe(504);
    expect(body.error.errors[0]?.reason).toBe('deadlineExceeded');
    expect(body.error.message).toContain('the list query took longer than 5000 ms');
    expect(body.error.message).not.toContain("field 'filter'");
  });

  it('passes other errors through unchanged', () => {
    const other = new Error('boom');
    expect(listErrorToApiError(other, {})).toBe(other);
  });
});
