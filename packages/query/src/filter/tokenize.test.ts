import { describe, expect, it } from 'vitest';
import { tokenize } from './tokenize.js';

describe('tokenize', () => {
  it('splits an AIP-160 filter into kinds and spans', () => {
    const { style, tokens, unknown } = tokenize('labels.env = "prod" AND size > 3 age < 5s');
    expect(style).toBe('aip-160');
    expect(unknown).toEqual([]);
    expect(tokens.map((t) => [t.kind, t.image])).toEqual([
      ['text', 'labels'],
      ['punctuation', '.'],
      ['text', 'env'],
      ['operator', '='],
      ['string', '"prod"'],
      ['keyword', 'AND'],
      ['text', 'size'],
      ['operator', '>'],
      ['number', '3'],
      ['text', 'age'],
      ['operator', '<'],
      ['duration', '5s'],
    ]);
    expect(tokens[4]?.span).toEqual({ start: 13, end: 19 });
  });

  it('splits a regex-style filter', () => {
    const { style, tokens } = tokenize('(name eq "web-.*")');
    expect(style).toBe('regex');
    expect(tokens.map((t) => t.kind)).toEqual([
      'punctuation',
      'text',
      'operator',
      'pattern',
      'punctuation',
    ]);
  });

  it('never throws on broken text: unknown characters are reported, the rest lexes', () => {
    const open = tokenize('a = "open');
    expect(open.tokens.map((t) => t.kind)).toEqual(['text', 'operator', 'string']);
    expect(open.unknown).toEqual([]);
    const bang = tokenize('a ! b');
    expect(bang.unknown).toEqual([{ start: 2, end: 3 }]);
    expect(bang.tokens.map((t) => t.image)).toEqual(['a', 'b']);
    expect(tokenize('')).toEqual({ style: 'empty', tokens: [], unknown: [] });
  });
});
