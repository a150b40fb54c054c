// The CLI's small readers shared by its commands: a byte stream read whole under a cap, and
// JSON nesting found without recursion (strings and escapes do not count as brackets).
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { nestsTooDeep, scanJsonNesting } from '../../packages/cli/src/json-nesting.js';
import { CapExceeded, formatBytes, readCapped } from '../../packages/cli/src/read-capped.js';

describe('readCapped', () => {
  it('joins the chunks up to the cap, and stops at the first chunk past it', async () => {
    const chunks = [Buffer.from('ab'), Buffer.from('cd')];
    expect((await readCapped(Readable.from(chunks), 4)).toString()).toBe('abcd');
    let pulled = 0;
    async function* endless() {
      for (;;) {
        pulled++;
        yield Buffer.alloc(1024);
      }
    }
    const error = await readCapped(endless(), 4096).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CapExceeded);
    expect((error as CapExceeded).limit).toBe(4096);
    expect((error as Error).message).toBe('more than 4 KiB');
    expect(pulled).toBe(5);
  });

  it('says sizes in MiB, KiB or bytes', () => {
    expect(formatBytes(16 * 1024 * 1024)).toBe('16 MiB');
    expect(formatBytes(1536)).toBe('1536 bytes');
  });
});

describe('scanJsonNesting', () => {
  it('counts objects and arrays, not brackets in strings or after escapes', () => {
    const text = '{"a":"[{\\"[","b":[{}, []]}';
    expect(JSON.parse(text)).toEqual({ a: '[{"[', b: [{}, []] });
    expect(scanJsonNesting(text, 3)).toEqual({ containers: 4 });
    expect(scanJsonNesting(text, 2).tooDeep).toMatchObject({ column: 19 });
  });

  it('locates the first bracket past the limit by line and column', () => {
    expect(scanJsonNesting('{\n  "a": [[1]]\n}', 2).tooDeep).toEqual({
      line: 2,
      column: 9,
      offset: 10,
    });
  });

  it('takes 100,000 levels without recursion', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(scanJsonNesting(deep, 100).tooDeep).toMatchObject({ line: 1, column: 101 });
    expect(scanJsonNesting(deep, 200_000)).toEqual({ containers: 100_000 });
  });
});

describe('nestsTooDeep', () => {
  it('answers as scanJsonNesting does, brackets in strings included in the count only', () => {
    const cases: [string, number][] = [
      ['{"a":[[1]]}', 2],
      ['{"a":[[1]]}', 3],
      // More brackets than the limit, all but one in a string: scanned, and not too deep.
      [`{"a":"${'['.repeat(50)}"}`, 10],
      [`{"a":"${'{'.repeat(50)}","b":[[[[[[[[[[[[1]]]]]]]]]]]]}`, 10],
      [`${'['.repeat(1000)}${']'.repeat(1000)}`, 512],
    ];
    for (const [text, max] of cases) {
      expect(nestsTooDeep(text, max), text).toEqual(scanJsonNesting(text, max).tooDeep);
    }
    expect(nestsTooDeep(`{"a":"${'['.repeat(50)}"}`, 10)).toBeUndefined();
    expect(nestsTooDeep(`${'['.repeat(1000)}${']'.repeat(1000)}`, 512)).toMatchObject({
      column: 513,
    });
  });
});
