import { type ListInput, ListkitError } from '@listkit/query';
import { describe, expect, it } from 'vitest';
import { listErrorToApiError } from './list-errors.js';

const problemIn = (input: ListInput, code: ListkitError['code'], source: string) =>
  ListkitError.of(input, code, 'what listkit found', { start: 0, end: source.length }, source);

describe('listErrorToApiError', () => {
  it('answers a list query that ran out of time as a 504 deadlineExceeded, not a 400', () => {
    const timeout = ListkitError.of(
      'filter',
      'query_timeout',
      'the list query took longer than 5000 ms',
      { start: 0, end: 0 },
      '',
    );
    const body = listErrorToApiError(timeout, { filter: 'name = "a"' }).body();
    expect(body.error.code).toBe(504);
    expect(body.error.errors[0]?.reason).toBe('deadlineExceeded');
    expect(body.error.message).toContain('the list query took longer than 5000 ms');
    expect(body.error.message).not.toContain("field 'filter'");
  });

  // The parameter named is the problem's input, whatever the code: an unknown field is the
  // filter's or the orderBy's by where it was raised, not by guessing from the text.
  it.each<[ListInput, ListkitError['code'], string, string]>([
    ['filter', 'unknown_field', 'filter', "Invalid value for field 'filter': 'nmae'"],
    ['orderBy', 'unknown_field', 'orderBy', "Invalid value for field 'orderBy': 'nmae'"],
    [
      'pageToken',
      'malformed_page_token',
      'pageToken',
      "Invalid value for field 'pageToken': 'nmae'",
    ],
    ['pageSize', 'invalid_page_size', 'maxResults', "Invalid value for field 'maxResults'."],
  ])('maps a problem in %s (%s) to a 400 on %s', (input, code, location, start) => {
    const error = listErrorToApiError(problemIn(input, code, 'nmae'), {
      filter: 'nmae',
      orderBy: 'nmae',
      pageToken: 'nmae',
      pageSize: '-1',
    });
    expect(error.status).toBe(400);
    expect(error.item()).toMatchObject({ reason: 'invalid', location });
    expect(error.message.startsWith(start)).toBe(true);
    expect(error.message).toContain('what listkit found');
  });

  it('quotes at most 40 characters of a bad token and 200 of a bad filter', () => {
    const token = 'T'.repeat(100);
    const tokenError = listErrorToApiError(problemIn('pageToken', 'tampered_page_token', token), {
      pageToken: token,
    });
    expect(tokenError.message).toContain(`'${'T'.repeat(40)}…' (100 characters)`);
    const filter = `name = ${'x'.repeat(300)}`;
    const filterError = listErrorToApiError(problemIn('filter', 'too_long', filter), { filter });
    expect(filterError.message).toContain(`'${filter.slice(0, 200)}…' (307 characters)`);
  });
});
