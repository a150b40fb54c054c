import { describe, expect, it } from 'vitest';
import { defineSchema, t } from '../schema/field-type.js';
import type { CheckedNode } from './checked.js';
import { compileFilter } from './compile.js';
import { checkedChildren, checkedFieldsOf, fieldsRead, walkChecked } from './walk-checked.js';

const schema = defineSchema({
  key: 'name',
  fields: {
    name: t.string({ searchable: true }),
    size: t.int64(),
    labels: t.map(t.string()),
    tags: t.repeated(t.string()),
  },
});
const checked = (filter: string) => compileFilter(filter, schema).checked;

const visited = (node: CheckedNode, skip?: CheckedNode['type']) => {
  const seen: string[] = [];
  walkChecked(node, (n, parent) => {
    seen.push(`${parent?.type ?? '-'}>${n.type}`);
    if (n.type === skip) return false;
  });
  return seen;
};

describe('walkChecked', () => {
  it('visits parents before children, siblings in source order', () => {
    expect(visited(checked('size > 1 AND NOT (labels.env = prod OR web) AND tags:x'))).toEqual([
      '->and',
      'and>compare',
      'and>not',
      'not>or',
      'or>compare',
      'or>search',
      'and>compare',
    ]);
  });

  it('skips the children of a node whose visit returns false', () => {
    expect(visited(checked('size > 1 AND NOT size = 2'), 'not')).toEqual([
      '->and',
      'and>compare',
      'and>not',
    ]);
  });

  it('visits the empty filter and regex terms', () => {
    expect(visited(checked(''))).toEqual(['->all']);
    expect(visited(checked('(name eq "a.*")(name ne b)'))).toEqual([
      '->and',
      'and>regex',
      'and>regex',
    ]);
  });

  it('walks very deep trees without recursion', () => {
    let deep: CheckedNode = checked('size = 1');
    for (let i = 0; i < 100_000; i++)
      deep = { type: 'not', operand: deep, span: { start: 0, end: 1 } };
    let count = 0;
    walkChecked(deep, () => {
      count++;
    });
    expect(count).toBe(100_001);
  });
});

describe('checkedChildren and the fields read', () => {
  it('gives the direct children', () => {
    expect(
      checkedChildren(checked('size = 1 AND (size = 2 OR size = 3)')).map((n) => n.type),
    ).toEqual(['compare', 'or']);
    expect(checkedChildren(checked('size = 1'))).toEqual([]);
  });

  it('lists the fields of comparisons, searches, regex terms and calls', () => {
    expect(
      checkedFieldsOf(checked('labels.env = prod OR NOT web AND tags:x')).map((f) => f.path),
    ).toEqual(['labels.env', 'name', 'tags']);
    expect(fieldsRead(checked('size = 1 AND tags:x'))).toEqual([]);
    expect(fieldsRead(checked('(name eq "a.*")')).map((f) => f.path)).toEqual(['name']);
  });
});
