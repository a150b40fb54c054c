import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortedIndex } from './sorted-index.js';

const compare = (a: number, b: number) => a - b;

/** The reference: a sorted array of [key, item] pairs, with the same comparator. */
class Reference {
  readonly entries: [number, string][] = [];

  has(key: number): boolean {
    return this.entries.some(([k]) => compare(k, key) === 0);
  }

  insert(key: number, item: string): void {
    this.entries.push([key, item]);
    this.entries.sort(([a], [b]) => compare(a, b));
  }

  delete(key: number): boolean {
    const i = this.entries.findIndex(([k]) => compare(k, key) === 0);
    if (i < 0) return false;
    this.entries.splice(i, 1);
    return true;
  }

  scan(after?: number): string[] {
    return this.entries
      .filter(([k]) => after === undefined || compare(k, after) > 0)
      .map(([, item]) => item);
  }
}

type Op =
  | { kind: 'insert'; key: number }
  | { kind: 'delete'; key: number }
  | { kind: 'scan'; after: number | undefined; limit: number };

// Small integers collide often (so deletes hit, and scans start at present keys); doubles
// (finite, so that `a - b` is a comparator) land between them (scans after absent keys).
const keyArb = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -40, max: 40 }) },
  {
    weight: 1,
    arbitrary: fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }),
  },
);

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: keyArb.map((key) => ({ kind: 'insert' as const, key })) },
  { weight: 3, arbitrary: keyArb.map((key) => ({ kind: 'delete' as const, key })) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.option(keyArb, { nil: undefined, freq: 5 }), fc.integer({ min: 1, max: 12 }))
      .map(([after, limit]) => ({ kind: 'scan' as const, after, limit })),
  },
);

/**
 * Applies the ops to both and checks every answer. Inserting a present key is skipped: keys
 * must be unique (a documented precondition).
 */
function run(ops: readonly Op[]): void {
  const index = new SortedIndex<number, string>(compare);
  const ref = new Reference();
  let serial = 0;
  for (const op of ops) {
    switch (op.kind) {
      case 'insert': {
        if (ref.has(op.key)) break;
        const item = `item-${serial++}`;
        index.insert(op.key, item);
        ref.insert(op.key, item);
        break;
      }
      case 'delete':
        expect(index.delete(op.key), `delete(${op.key})`).toBe(ref.delete(op.key));
        break;
      case 'scan': {
        expect([...index.scan(op.after)], `scan(${op.after})`).toEqual(ref.scan(op.after));
        // visitAfter: the same items, stopping when the visitor returns false.
        const visited: string[] = [];
        index.visitAfter(op.after, (item) => {
          visited.push(item);
          return visited.length < op.limit;
        });
        expect(visited, `visitAfter(${op.after})`).toEqual(ref.scan(op.after).slice(0, op.limit));
        break;
      }
    }
    expect(index.size).toBe(ref.entries.length);
  }
  expect([...index.scan()]).toEqual(ref.scan());
  // Every present key and every point between two of them (or beyond either end).
  const keys = ref.entries.map(([k]) => k);
  const probes = [...keys, ...keys.map((k) => k + 0.5), ...keys.map((k) => k - 0.5), -1e9, 1e9];
  for (const after of probes) {
    expect([...index.scan(after)]).toEqual(ref.scan(after));
    const visited: string[] = [];
    index.visitAfter(after, (item) => visited.push(item) > 0);
    expect(visited).toEqual(ref.scan(after));
  }
}

describe('SortedIndex', () => {
  it('matches a sorted array under random insert / delete / scan sequences', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 300, size: 'max' }), (ops) => run(ops)),
      { numRuns: 200 },
    );
  });

  it('matches a sorted array when emptied and refilled (levels shrink and grow back)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: -1000, max: 1000 }), { maxLength: 200, size: 'max' }),
        fc.uniqueArray(fc.integer({ min: -1000, max: 1000 }), { maxLength: 200, size: 'max' }),
        (first, second) => {
          const ops: Op[] = [
            ...first.map((key) => ({ kind: 'insert' as const, key })),
            ...first.map((key) => ({ kind: 'delete' as const, key })),
            { kind: 'scan', after: undefined, limit: 1000 },
            ...first.map((key) => ({ kind: 'delete' as const, key })),
            ...second.map((key) => ({ kind: 'insert' as const, key })),
            { kind: 'scan', after: undefined, limit: 1000 },
            ...second
              .filter((_, i) => i % 3 === 0)
              .map((key) => ({ kind: 'delete' as const, key })),
          ];
          run(ops);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('handles an empty index', () => {
    const index = new SortedIndex<number, string>(compare);
    expect(index.size).toBe(0);
    expect([...index.scan()]).toEqual([]);
    expect([...index.scan(0)]).toEqual([]);
    index.visitAfter(undefined, () => expect.unreachable());
    index.visitAfter(0, () => expect.unreachable());
    expect(index.delete(0)).toBe(false);
    expect(index.size).toBe(0);
  });

  it('deletes absent keys without touching neighbours, and scans after absent keys', () => {
    const index = new SortedIndex<number, string>(compare);
    for (const k of [10, 20, 30]) index.insert(k, `v${k}`);
    expect(index.delete(15)).toBe(false);
    expect(index.delete(5)).toBe(false);
    expect(index.delete(35)).toBe(false);
    expect(index.size).toBe(3);
    expect([...index.scan(15)]).toEqual(['v20', 'v30']);
    expect([...index.scan(5)]).toEqual(['v10', 'v20', 'v30']);
    expect([...index.scan(30)]).toEqual([]);
    expect([...index.scan(35)]).toEqual([]);
    expect(index.delete(20)).toBe(true);
    expect(index.delete(20)).toBe(false);
    expect([...index.scan(10)]).toEqual(['v30']);
    expect([...index.scan(20)]).toEqual(['v30']);
  });

  it('stays ordered over many operations (tall towers)', () => {
    const index = new SortedIndex<number, string>(compare);
    const ref = new Reference();
    // A fixed pseudo-random permutation of 0..19999 (multiplier coprime to n).
    const n = 20_000;
    for (let i = 0; i < n; i++) {
      const k = (i * 7919) % n;
      index.insert(k, `v${k}`);
      ref.entries.push([k, `v${k}`]);
    }
    ref.entries.sort(([a], [b]) => a - b);
    for (let i = 0; i < n; i += 2) {
      const k = (i * 104_729) % n;
      expect(index.delete(k)).toBe(ref.delete(k));
    }
    expect(index.size).toBe(ref.entries.length);
    expect([...index.scan()]).toEqual(ref.scan());
    for (const after of [-1, 0, 1, 2.5, 9_999, 19_998, 19_999, 20_000]) {
      expect([...index.scan(after)]).toEqual(ref.scan(after));
    }
  });
});
