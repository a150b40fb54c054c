import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareInstants, parseTimestamp } from './timestamp.js';

describe('parseTimestamp', () => {
  it.each([
    ['1970-01-01T00:00:00Z', 0, 0],
    ['2012-04-21T11:30:00-04:00', 1335022200, 0],
    ['2012-04-21t15:30:00z', 1335022200, 0],
    ['2024-02-29T00:00:00.5+01:00', 1709161200, 500_000_000],
    ['2024-01-01T00:00:00.000000001Z', 1704067200, 1],
    ['1969-12-31T23:59:59.999999999Z', -1, 999_999_999],
    ['0001-01-01T00:00:00Z', -62135596800, 0],
    ['9999-12-31T23:59:59Z', 253402300799, 0],
  ])('%s', (text, seconds, nanos) => {
    expect(parseTimestamp(text)).toEqual({ seconds, nanos });
  });

  it.each([
    '2023-02-29T00:00:00Z',
    '2024-13-01T00:00:00Z',
    '2024-04-31T00:00:00Z',
    '2024-01-01T24:00:00Z',
    '2024-01-01T00:60:00Z',
    '2024-01-01T00:00:60Z',
    '2024-01-01T00:00:00',
    '2024-01-01T00:00:00.Z',
    '2024-01-01T00:00:00.1234567890Z',
    '2024-01-01T00:00:00+24:00',
    '2024-01-01T00:00:00+0100',
    '2024-01-01 00:00:00Z',
    '2024-1-01T00:00:00Z',
    '2024-01-01T00:00:00Zx',
    '+2024-01-01T00:00:00Z',
    '',
  ])('rejects %j', (text) => {
    expect(parseTimestamp(text)).toBeUndefined();
  });

  it('agrees with Date for millisecond timestamps', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }),
        (date) => {
          const iso = date.toISOString();
          expect(parseTimestamp(iso)).toEqual({
            seconds: Math.floor(date.getTime() / 1000),
            nanos: (((date.getTime() % 1000) + 1000) % 1000) * 1e6,
          });
        },
      ),
    );
  });

  it('orders instants to the nanosecond', () => {
    const a = parseTimestamp('2024-01-01T00:00:00.000000001Z')!;
    const b = parseTimestamp('2023-12-31T19:00:00.000000002-05:00')!;
    expect(compareInstants(a, b)).toBeLessThan(0);
  });
});
