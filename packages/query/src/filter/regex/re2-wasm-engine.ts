// re2-wasm's Emscripten module: a CommonJS file whose embind classes are attached at run time, so
// only a default import works under Node ESM. re2-wasm 1.0.2 has no `exports` map, which makes
// this subpath importable; the version is pinned exactly in package.json.
import re2WasmModule from 're2-wasm/build/wasm/re2.js';
import { type CompiledRegex, type RegexEngine, RegexSyntaxError } from './regex-engine.js';

/**
 * The embind class that re2-wasm's public `RE2` class wraps: C++ `RE2` on a fixed 16 MiB WASM
 * heap. The published typings omit `delete()`, embind's call that frees the C++ object.
 */
interface WrappedRE2 {
  ok(): boolean;
  error(): string;
  /** Unanchored search from `start`; `index` is -1 when nothing matches. */
  match(input: string, start: number, getCapturingGroups: boolean): { index: number };
  delete(): void;
}

type WrappedRE2Constructor = new (
  pattern: string,
  ignoreCase: boolean,
  multiline: boolean,
  dotAll: boolean,
) => WrappedRE2;

// Why not `new RE2(pattern, 'u')` from 're2-wasm' (measured, re2-wasm 1.0.2, Node 20):
// * a rejected pattern leaks ~220 bytes, because the constructor throws after creating its
//   wrapper and the handle is lost; about 50,000 invalid user patterns poison the process;
// * even with the private `re.wrapper.delete()`, each compile leaks ~36 bytes (embind handles of
//   the capture-group-name map that the constructor never deletes);
// * its JS-compatibility rewrite (`\uXXXX`, `\cX`, `(?<name>`, `/`) accepts syntax that RE2 and
//   re2js reject, and even rewrites `/` inside `\Q…\E`.
// The wrapper used directly leaks nothing: 100,000 compile + delete cycles left the heap as it was.
function newWrapped(pattern: string): WrappedRE2 {
  // Narrow cast: the typings declare WrappedRE2 without `delete()` (see the interface above).
  const { WrappedRE2 } = re2WasmModule as unknown as { WrappedRE2: WrappedRE2Constructor };
  return new WrappedRE2(pattern, false, false, false);
}

/** Compiles `pattern`, or frees it and returns RE2's error message. */
function tryCompile(pattern: string): WrappedRE2 | string {
  const re = newWrapped(pattern);
  if (re.ok()) return re;
  const message = re.error();
  re.delete();
  return message;
}

/**
 * RE2 (C++) compiled to WASM; Node only. Every compiled regex holds memory on a fixed 16 MiB heap
 * until `dispose()`, so compile through a bounded `RegexCache`, never per match.
 *
 * RE2 here only searches, so a full match is compiled as `^(?:pattern)$`. Wrapping alone would
 * let a pattern escape the group: `a)|(?:b` is invalid, yet `^(?:a)|(?:b)$` is valid and matches
 * any input starting with `a`. The raw pattern is therefore validated on its own first.
 *
 * @example
 * ```ts
 * import { re2WasmEngine } from '@listkit/query/re2-wasm';
 * compileFilter('name eq "web-.*"', schema, { regexEngine: re2WasmEngine });
 * ```
 */
export const re2WasmEngine: RegexEngine = {
  name: 're2-wasm',
  compile(pattern: string): CompiledRegex {
    const alone = tryCompile(pattern);
    if (typeof alone === 'string') throw new RegexSyntaxError(alone);
    alone.delete();

    let anchored = tryCompile(`^(?:${pattern})$`);
    if (typeof anchored === 'string') {
      // A valid pattern fails once wrapped only if it ends inside `\Q…` (quoting to the end
      // swallows the `)$`). Close the quote; RE2 rejects a stray `\E`, so this retry cannot
      // succeed for any other pattern.
      const closed = tryCompile(`^(?:${pattern}\\E)$`);
      if (typeof closed === 'string') throw new RegexSyntaxError(anchored);
      anchored = closed;
    }

    const re = anchored;
    let disposed = false;
    return {
      // The C++ object lives on the WASM heap, where RE2's own max_mem bounds it; this is an
      // estimate for the cache's JavaScript-side budget (a compiled RE2 takes ~1 KiB and grows
      // with the pattern).
      approximateBytes: 1024 + 64 * pattern.length,
      fullMatch(input) {
        if (disposed) throw new Error('re2-wasm: fullMatch() called after dispose()');
        return re.match(input, 0, false).index >= 0;
      },
      dispose() {
        if (disposed) return;
        disposed = true;
        re.delete();
      },
    };
  },
};
