import { describe, expect, it } from 'vitest';
import { ListkitError } from '../errors.js';
import { defineSchema, type ResourceSchema, t } from '../schema/field-type.js';
import { checkFilter } from './checker.js';
import { compileFilter } from './compile.js';
import type { FilterLimits } from './limits.js';
import { parseFilter } from './parser.js';
import { estimateBytes, type PreparedFilter, PreparedFilterCache } from './prepared-cache.js';
import { printFilter } from './printer.js';

const schema = defineSchema({
  key: 'name',
  fields: { name: t.string(), size: t.int64(), labels: t.map(t.string()) },
});
const other = defineSchema({ key: 'name', fields: { name: t.string() } });

/** A cache whose prepare counts its calls: the seam that tells a hit from a parse. */
function counting(bounds?: { maxEntries: number; maxBytes: number }) {
  const calls: string[] = [];
  const prepare = (text: string, s: ResourceSchema, limits?: Partial<FilterLimits>) => {
    calls.push(text);
    const ast = parseFilter(text, limits ? { limits } : {});
    const result = checkFilter(ast, s);
    if (!result.ok) throw new ListkitError(result.problems, text);
    return { ast, checked: result.checked, canonical: printFilter(ast) } as PreparedFilter;
  };
  return { calls, cache: new PreparedFilterCache(prepare, bounds) };
}

describe('PreparedFilterCache', () => {
  it('parses a filter once: a hit does not call the parser again', () => {
    const { calls, cache } = counting();
    const first = cache.get('name = web AND size > 2', schema, undefined);
    const second = cache.get('name = web AND size > 2', schema, undefined);
    expect(calls).toEqual(['name = web AND size > 2']);
    expect(second).toBe(first);
  });

  it('keys by schema identity and parse limits as well as by text', () => {
    const { calls, cache } = counting();
    cache.get('name = a', schema, undefined);
    cache.get('name = a', other, undefined);
    cache.get('name = a', schema, { maxTerms: 4 });
    cache.get('name = a', schema, { maxTerms: 5 });
    cache.get('name = a', schema, { maxTerms: 4 });
    expect(calls).toHaveLength(4);
  });

  it('does not keep filters that fail, and throws their error every time', () => {
    const { calls, cache } = counting();
    expect(() => cache.get('nmae = a', schema, undefined)).toThrow(ListkitError);
    expect(() => cache.get('nmae = a', schema, undefined)).toThrow(ListkitError);
    expect(calls).toHaveLength(2);
    expect(cache.size.entries).toBe(0);
  });

  it('holds its count bound, evicting the least recently used', () => {
    const { calls, cache } = counting({ maxEntries: 3, maxBytes: 1 << 30 });
    for (let i = 0; i < 100; i++) cache.get(`size = ${i}`, schema, undefined);
    expect(cache.size.entries).toBe(3);
    cache.get('size = 97', schema, undefined); // kept: no parse
    expect(calls).toHaveLength(100);
    cache.get('size = 98', schema, undefined); // refresh 98, so 99 is now the oldest after 97
    cache.get('size = 0', schema, undefined); // evicted long ago: parsed again, evicts 99
    expect(calls).toHaveLength(101);
    cache.get('size = 97', schema, undefined);
    cache.get('size = 98', schema, undefined);
    expect(calls).toHaveLength(101);
    cache.get('size = 99', schema, undefined);
    expect(calls).toHaveLength(102);
  });

  it('holds its byte bound, and does not keep a filter larger than the whole bound', () => {
    const maxBytes = 20_000;
    const { cache } = counting({ maxEntries: 1_000_000, maxBytes });
    for (let i = 0; i < 500; i++) {
      cache.get(`name = "${'x'.repeat(i % 50)}${i}"`, schema, undefined);
      expect(cache.size.bytes).toBeLessThanOrEqual(maxBytes);
    }
    expect(cache.size.entries).toBeGreaterThan(0);
    const huge = `name = "${'y'.repeat(400)}"`;
    expect(estimateBytes(huge, huge)).toBeGreaterThan(maxBytes);
    const before = cache.size;
    cache.get(huge, schema, undefined);
    expect(cache.size).toEqual(before);
  });

  it('keeps results frozen, but leaves the schema it refers to alone', () => {
    const { cache } = counting();
    const prepared = cache.get('name = web AND labels.env:prod', schema, undefined);
    expect(Object.isFrozen(prepared.ast)).toBe(true);
    expect(Object.isFrozen(prepared.checked)).toBe(true);
    expect(() => {
      (prepared.checked as { type: string }).type = 'all';
    }).toThrow(TypeError);
    expect(Object.isFrozen(schema)).toBe(false);
    expect(Object.isFrozen(schema.fields.name)).toBe(false);
  });
});

describe('compileFilter through the cache', () => {
  it('gives the same tree to every compile of a text, and independent predicates', () => {
    const a = compileFilter('name = web', schema);
    const b = compileFilter('name = web', schema);
    expect(b.ast).toBe(a.ast);
    expect(b.checked).toBe(a.checked);
    a.dispose();
    expect(b.matches({ name: 'web' })).toBe(true);
    b.dispose();
  });
});
