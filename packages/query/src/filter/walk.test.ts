import { describe, expect, it } from 'vitest';
import { parseFilter } from './parser.js';
import { type FilterNode, walkFilter } from './walk.js';

const visited = (source: string) => {
  const seen: string[] = [];
  walkFilter(parseFilter(source), (node, parent) => {
    seen.push(`${parent?.type ?? '-'}>${node.type}`);
  });
  return seen;
};

describe('walkFilter', () => {
  it('visits parents before children, siblings in source order', () => {
    expect(visited('a = 1 AND NOT f(b, (c))')).toEqual([
      '->and',
      'and>restriction',
      'restriction>member',
      'restriction>member',
      'and>not',
      'not>restriction',
      'restriction>call',
      'call>member',
      'call>composite',
      'composite>restriction',
      'restriction>member',
    ]);
  });

  it('visits regex-style terms and their fields', () => {
    expect(visited('(name eq "a.*")(region ne b)')).toEqual([
      '->regexTerm',
      'regexTerm>member',
      '->regexTerm',
      'regexTerm>member',
    ]);
  });

  it('visits nothing in the empty filter', () => {
    expect(visited('   ')).toEqual([]);
  });

  it('skips the children of a node when the visitor returns false', () => {
    const seen: FilterNode['type'][] = [];
    walkFilter(parseFilter('a = 1 OR (b = 2 c = 3)'), (node) => {
      seen.push(node.type);
      return node.type !== 'composite';
    });
    expect(seen).toEqual(['or', 'restriction', 'member', 'member', 'composite']);
  });

  it('walks the deepest tree the parser accepts without recursion', () => {
    const source = `${'('.repeat(31)}a = 1${')'.repeat(31)}`;
    let count = 0;
    walkFilter(parseFilter(source), () => {
      count++;
    });
    expect(count).toBe(31 + 3);
  });
});
