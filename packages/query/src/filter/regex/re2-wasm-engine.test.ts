import re2WasmModule from 're2-wasm/build/wasm/re2.js';
import { describe, expect, it } from 'vitest';
import { re2WasmEngine } from './re2-wasm-engine.js';
import { RegexSyntaxError } from './regex-engine.js';

const fullMatch = (pattern: string, input: string) => {
  const re = re2WasmEngine.compile(pattern);
  try {
    return re.fullMatch(input);
  } finally {
    re.dispose();
  }
};

// Emscripten's allocator, to see whether the fixed 16 MiB heap grows (test-only cast: the
// published typings do not declare these exports).
const heap = re2WasmModule as unknown as {
  _malloc(size: number): number;
  _free(ptr: number): void;
};
/** Where a small allocation lands now: it moves up when memory leaks. */
function heapProbe(): number {
  const ptr = heap._malloc(16);
  heap._free(ptr);
  return ptr;
}

// The RegexEngine contract is asserted for every engine in regex-engine.conformance.test.ts;
// this file holds what is particular to re2-wasm: its wording and its fixed wasm heap.

describe('re2WasmEngine', () => {
  it("reports RE2's reason without JS RegExp decoration", () => {
    expect(() => re2WasmEngine.compile('(')).toThrow(new RegexSyntaxError('missing ): ('));
    expect(() => re2WasmEngine.compile('a)|(?:b')).toThrow(
      new RegexSyntaxError('unexpected ): a)|(?:b'),
    );
  });

  it('is named re2-wasm', () => {
    expect(re2WasmEngine.name).toBe('re2-wasm');
  });

  it('disposes once and refuses use after dispose', () => {
    const re = re2WasmEngine.compile('a+');
    expect(re.fullMatch('aa')).toBe(true);
    re.dispose();
    re.dispose();
    expect(() => re.fullMatch('aa')).toThrow('after dispose');
  });

  it('frees the heap on dispose', () => {
    for (let i = 0; i < 100; i++) re2WasmEngine.compile(`warm-${i}`).dispose();
    const before = heapProbe();
    for (let i = 0; i < 2000; i++) {
      const re = re2WasmEngine.compile(`leak-${i}-[a-z]+`);
      re.fullMatch(`leak-${i}-abc`);
      re.dispose();
    }
    // The public `RE2` class would leak ~72 bytes per compile here (~140 KB).
    expect(heapProbe() - before).toBeLessThan(16 * 1024);
  });

  it('leaks nothing for rejected patterns', () => {
    // The public `RE2` class leaks ~220 bytes per rejected pattern and aborts after ~53,000.
    let rejected = 0;
    for (let i = 0; i < 60_000; i++) {
      try {
        re2WasmEngine.compile(`bad-${i}(`);
      } catch (error) {
        if (!(error instanceof RegexSyntaxError)) throw error;
        rejected++;
      }
    }
    expect(rejected).toBe(60_000);
    expect(fullMatch('still-[a-z]+', 'still-ok')).toBe(true);
  });
});
