import { describe, expect, it } from 'vitest';
import { parseDuration } from './duration.js';

describe('parseDuration', () => {
  it.each([
    ['1.5s', { seconds: 1, nanos: 500_000_000 }],
    ['-0.000000001s', { seconds: 0, nanos: -1 }],
    // ISO 8601, as JSON Schema's format: duration writes them
    ['PT1.5S', { seconds: 1, nanos: 500_000_000 }],
    ['PT1M30S', { seconds: 90, nanos: 0 }],
    ['P1DT2H', { seconds: 93_600, nanos: 0 }],
    ['P2D', { seconds: 172_800, nanos: 0 }],
    ['-PT30M', { seconds: -1_800, nanos: 0 }],
    ['PT0,25S', { seconds: 0, nanos: 250_000_000 }],
  ])('%s', (text, expected) => {
    expect(parseDuration(text)).toEqual(expected);
  });

  it.each(['P', 'PT', 'P1DT', 'P1Y', 'P1M', 'P1W', 'PT1.5', 'pt1s', '1.5', 'P1DT2H3', 'PT1S2M'])(
    'refuses %s',
    (text) => {
      expect(parseDuration(text)).toBeUndefined();
    },
  );
});
