import { describe, expect, it } from 'vitest';
import { re2WasmEngine } from './re2-wasm-engine.js';
import { re2jsEngine } from './re2js-engine.js';
import { DEFAULT_REGEX_CACHE_BYTES, RegexCache } from './regex-cache.js';
import {
  type CompiledRegex,
  type RegexEngine,
  RegexSyntaxError,
  RegexTooLargeError,
} from './regex-engine.js';

/**
 * Matches its pattern literally; `(` makes a pattern invalid. Records compiles and disposals.
 * A pattern's program size is its length, and it weighs 100 bytes per character.
 */
function fakeEngine(programSizeLowerBound?: RegexEngine['programSizeLowerBound']) {
  const compiled: CompiledRegex[] = [];
  /** Patterns in the order their regexes were disposed. */
  const disposals: string[] = [];
  const engine: RegexEngine = {
    name: 'fake',
    ...(programSizeLowerBound ? { programSizeLowerBound } : {}),
    compile(pattern) {
      if (pattern.includes('(')) throw new RegexSyntaxError(`missing ): ${pattern}`);
      let disposed = false;
      const re: CompiledRegex = {
        programSize: pattern.length,
        approximateBytes: 100 * pattern.length,
        fullMatch(input) {
          if (disposed) throw new Error(`${pattern} used after dispose`);
          return input === pattern;
        },
        dispose() {
          if (disposed) throw new Error(`${pattern} disposed twice`);
          disposed = true;
          disposals.push(pattern);
        },
      };
      compiled.push(re);
      return re;
    },
  };
  return { engine, compiled, disposed: () => [...disposals] };
}

describe('RegexCache', () => {
  it('compiles once per pattern', () => {
    const { engine, compiled } = fakeEngine();
    const cache = new RegexCache(engine, { capacity: 2 });
    const a = cache.get('a');
    expect(cache.get('a')).toBe(a);
    expect(a.fullMatch('a')).toBe(true);
    expect(compiled).toHaveLength(1);
    expect(cache.size).toBe(1);
  });

  it('evicts and disposes the least recently used pattern', () => {
    const { engine, compiled, disposed } = fakeEngine();
    const cache = new RegexCache(engine, { capacity: 2 });
    cache.get('a');
    cache.get('b');
    cache.get('a'); // now b is the least recently used
    cache.get('c');
    expect(disposed()).toEqual(['b']);
    expect(cache.size).toBe(2);
    cache.get('a');
    expect(compiled).toHaveLength(3);
    cache.get('b'); // a miss again; evicts c
    expect(disposed()).toEqual(['b', 'c']);
  });

  it('does not cache invalid patterns', () => {
    const { engine } = fakeEngine();
    const cache = new RegexCache(engine, { capacity: 2 });
    cache.get('a');
    expect(() => cache.get('(')).toThrow(new RegexSyntaxError('missing ): ('));
    expect(() => cache.get('(')).toThrow(RegexSyntaxError);
    expect(cache.size).toBe(1);
  });

  it('defers disposing an acquired regex until its last release', () => {
    const { engine, disposed } = fakeEngine();
    const cache = new RegexCache(engine, { capacity: 1 });
    const a = cache.acquire('a');
    expect(cache.acquire('a')).toBe(a);
    cache.get('b'); // evicts a, which is still held twice
    expect(cache.size).toBe(1);
    expect(disposed()).toEqual([]);
    expect(a.fullMatch('a')).toBe(true);
    cache.release(a);
    expect(disposed()).toEqual([]);
    expect(a.fullMatch('a')).toBe(true);
    cache.release(a);
    expect(disposed()).toEqual(['a']);
  });

  it('keeps a released regex cached until it is evicted', () => {
    const { engine, compiled, disposed } = fakeEngine();
    const cache = new RegexCache(engine, { capacity: 1 });
    const a = cache.acquire('a');
    cache.release(a);
    expect(disposed()).toEqual([]);
    expect(cache.get('a')).toBe(a);
    expect(compiled).toHaveLength(1);
    cache.get('b');
    expect(disposed()).toEqual(['a']);
  });

  it('compiles a fresh regex for a pattern whose evicted regex is still held', () => {
    const { engine, disposed } = fakeEngine();
    const cache = new RegexCache(engine, { capacity: 1 });
    const held = cache.acquire('a');
    cache.get('b');
    const fresh = cache.acquire('a'); // evicts b
    expect(fresh).not.toBe(held);
    expect(disposed()).toEqual(['b']);
    cache.release(held);
    expect(disposed()).toEqual(['b', 'a']);
    expect(fresh.fullMatch('a')).toBe(true);
    cache.release(fresh);
  });

  it('clear() disposes everything except acquired regexes, which go on release', () => {
    const { engine, disposed } = fakeEngine();
    const cache = new RegexCache(engine, { capacity: 10 });
    cache.get('a');
    const b = cache.acquire('b');
    cache.get('c');
    cache.clear();
    expect(cache.size).toBe(0);
    expect(disposed()).toEqual(['a', 'c']);
    expect(b.fullMatch('b')).toBe(true);
    cache.release(b);
    expect(disposed()).toEqual(['a', 'c', 'b']);
  });

  it('rejects a release without a matching acquire', () => {
    const { engine } = fakeEngine();
    const cache = new RegexCache(engine, { capacity: 2 });
    const a = cache.get('a');
    expect(() => cache.release(a)).toThrow('not acquired');
    cache.release(cache.acquire('a'));
    expect(() => cache.release(a)).toThrow('not acquired');
  });

  it('keeps at most maxBytes, evicting the least recently used first', () => {
    const { engine, disposed } = fakeEngine();
    const cache = new RegexCache(engine, { capacity: 100, maxBytes: 1000 });
    cache.get('aaaa'); // 400 bytes
    cache.get('bbbb'); // 800
    cache.get('cc'); // 1000: still within budget
    expect(disposed()).toEqual([]);
    cache.get('d'); // 1100: a goes
    expect(disposed()).toEqual(['aaaa']);
    expect(cache.bytes).toBe(700);
    expect(cache.size).toBe(3);
  });

  it('keeps a regex larger than the whole budget only until the next compile', () => {
    const { engine, disposed } = fakeEngine();
    const cache = new RegexCache(engine, { capacity: 100, maxBytes: 1000 });
    const big = 'b'.repeat(20); // 2000 bytes
    cache.get('a');
    expect(cache.get(big).fullMatch(big)).toBe(true);
    expect(disposed()).toEqual(['a']);
    expect(cache.bytes).toBe(2000);
    const held = cache.acquire(big);
    cache.get('c');
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBe(100);
    expect(held.fullMatch(big)).toBe(true); // evicted, but still held
    cache.release(held);
    expect(disposed()).toEqual(['a', big]);
  });

  it('refuses a program over maxProgramSize, without caching it', () => {
    const { engine, disposed } = fakeEngine();
    const cache = new RegexCache(engine, { capacity: 10 });
    expect(() => cache.acquire('abcdef', 5)).toThrow(new RegexTooLargeError(6, 5));
    expect(disposed()).toEqual(['abcdef']);
    expect(cache.size).toBe(0);
    cache.get('abcdef'); // no limit: cached
    expect(() => cache.get('abcdef', 5)).toThrow(RegexTooLargeError);
    expect(cache.get('abcdef', 6).fullMatch('abcdef')).toBe(true);
  });

  it('remembers a pattern refused as too large, and refuses it again without compiling', () => {
    const { engine, compiled } = fakeEngine();
    const cache = new RegexCache(engine, { capacity: 10 });
    expect(() => cache.acquire('abcdef', 5)).toThrow(new RegexTooLargeError(6, 5));
    expect(compiled).toHaveLength(1);
    expect(cache.refusals).toBe(1);
    expect(() => cache.acquire('abcdef', 5)).toThrow(new RegexTooLargeError(6, 5));
    expect(() => cache.get('abcdef', 3)).toThrow(new RegexTooLargeError(6, 3));
    expect(compiled).toHaveLength(1);
    expect(cache.size).toBe(0);
    // Under a limit it fits, it compiles, and the refusal is forgotten.
    expect(cache.get('abcdef', 6).fullMatch('abcdef')).toBe(true);
    expect(compiled).toHaveLength(2);
    expect(cache.refusals).toBe(0);
  });

  it("refuses a pattern whose engine's lower bound is over the limit without compiling it", () => {
    const { engine, compiled } = fakeEngine((pattern) =>
      pattern.startsWith('?') ? undefined : pattern.length - 1,
    );
    const cache = new RegexCache(engine, { capacity: 10 });
    const error = new RegexTooLargeError(6, 5, true);
    expect(error.message).toBe(
      'the compiled program has at least 6 instructions, more than the limit of 5',
    );
    expect(() => cache.acquire('abcdefg', 5)).toThrow(error);
    expect(() => cache.acquire('abcdefg', 5)).toThrow(error);
    expect(compiled).toHaveLength(0);
    // A bound within the limit, or none, leaves the decision to the compiled program.
    expect(() => cache.acquire('abcdef', 5)).toThrow(new RegexTooLargeError(6, 5));
    expect(() => cache.acquire('?bcdef', 5)).toThrow(new RegexTooLargeError(6, 5));
    expect(compiled).toHaveLength(2);
    // No limit: no bound asked, compiled as before.
    expect(cache.get('abcdefg').fullMatch('abcdefg')).toBe(true);
    expect(compiled).toHaveLength(3);
  });

  it('remembers at most `refusals` patterns and `refusalBytes` of their text, the oldest going first', () => {
    const { engine, compiled } = fakeEngine();
    const cache = new RegexCache(engine, { refusals: 2 });
    for (const p of ['aa', 'bb', 'cc']) expect(() => cache.get(p, 1)).toThrow(RegexTooLargeError);
    expect(cache.refusals).toBe(2);
    expect(() => cache.get('cc', 1)).toThrow(RegexTooLargeError);
    expect(() => cache.get('bb', 1)).toThrow(RegexTooLargeError);
    expect(compiled).toHaveLength(3);
    expect(() => cache.get('aa', 1)).toThrow(RegexTooLargeError); // forgotten: compiled again
    expect(compiled).toHaveLength(4);

    // 2 bytes per UTF-16 unit and 96 per entry: room for two 100-character patterns, not three.
    const small = new RegexCache(fakeEngine().engine, { refusalBytes: 600 });
    for (const c of 'xyz') expect(() => small.get(c.repeat(100), 1)).toThrow(RegexTooLargeError);
    expect(small.refusals).toBe(2);
    // One pattern larger than the whole budget is not remembered at all.
    expect(() => small.get('w'.repeat(300), 1)).toThrow(RegexTooLargeError);
    expect(small.refusals).toBe(2);
    small.clear();
    expect(small.refusals).toBe(0);
  });

  it('refuses a 5 KB re2js pattern of counted repetitions without compiling it, and a repeated one with no bound once', () => {
    let compiles = 0;
    const counting: RegexEngine = {
      ...re2jsEngine,
      compile(pattern) {
        compiles++;
        return re2jsEngine.compile(pattern);
      },
    };
    const cache = new RegexCache(counting);
    const alternatives = Array.from({ length: 715 }, (_, i) => `.{${1000 - i}}`).join('|');
    const large = `(${alternatives})q17`;
    expect(large.length).toBeGreaterThan(5000);
    for (let i = 0; i < 2; i++) {
      expect(() => cache.acquire(large, 100_000)).toThrow(RegexTooLargeError);
      expect(compiles).toBe(0);
    }
    // Flags are not read by the bound: compiled once, then remembered.
    const folded = '(?i)(\\pL|\\pN){1000}';
    for (let i = 0; i < 2; i++) {
      expect(() => cache.acquire(folded, 100_000)).toThrow(RegexTooLargeError);
      expect(compiles).toBe(1);
    }
  });

  it.each([0, -1, 1.5, Number.NaN])('rejects capacity %s', (capacity) => {
    expect(() => new RegexCache(fakeEngine().engine, { capacity })).toThrow(RangeError);
  });

  it.each([0, -1, Number.NaN])('rejects maxBytes %s', (maxBytes) => {
    expect(() => new RegexCache(fakeEngine().engine, { maxBytes })).toThrow(RangeError);
  });

  it('holds at most 16 MiB of re2js programs by default, however many distinct large patterns', () => {
    // Each pattern is ~33,000 instructions (~3.7 MB); 1000 entries of them would be ~3.7 GB.
    expect(DEFAULT_REGEX_CACHE_BYTES).toBe(16 * 1024 * 1024);
    const cache = new RegexCache(re2jsEngine);
    for (let i = 0; i < 30; i++) {
      const alternatives = Array.from({ length: 33 }, (_, k) => `.{${1000 - k}}`).join('|');
      const re = cache.get(`(${alternatives})q${i}`);
      expect(re.approximateBytes).toBeGreaterThan(3_000_000);
      expect(re.fullMatch(`${'x'.repeat(990)}q${i}`)).toBe(true);
    }
    expect(cache.bytes).toBeLessThanOrEqual(DEFAULT_REGEX_CACHE_BYTES);
    expect(cache.size).toBeLessThan(6);
    expect(cache.size).toBeGreaterThan(2);
  });

  it('keeps re2-wasm alive through 100,000 distinct patterns', { timeout: 180_000 }, () => {
    // Each re2-wasm regex lives on a fixed 16 MiB heap; undisposed, ~5,000 compiles exhaust it
    // and abort the WASM module for the rest of the process.
    const cache = new RegexCache(re2WasmEngine, { capacity: 256 });
    let matched = 0;
    for (let i = 0; i < 100_000; i++) {
      const re = cache.get(`item-${i}-[a-z]+`);
      if (re.fullMatch(`item-${i}-abc`) && !re.fullMatch(`item-${i}-abc1`)) matched++;
    }
    expect(matched).toBe(100_000);
    expect(cache.size).toBe(256);
    expect(cache.get('after-[0-9]{3}').fullMatch('after-123')).toBe(true);
    expect(cache.get('after-[0-9]{3}').fullMatch('after-1234')).toBe(false);
    cache.clear();
  });
});
