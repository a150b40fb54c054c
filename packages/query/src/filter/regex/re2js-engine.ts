import { RE2JS, RE2JSSyntaxException } from 're2js';
import { re2ProgramSizeLowerBound } from './program-size-bound.js';
import { type CompiledRegex, type RegexEngine, RegexSyntaxError } from './regex-engine.js';

/** What re2js 2.10 keeps of a compiled program (internal; the version is pinned exactly). */
interface Re2jsProgram {
  inst?: ReadonlyArray<{ runes?: ArrayLike<number> | null }>;
}

// Measured on re2js 2.10 (Node 20): a program of 460,000 instructions holds ~51 MB, ~110 bytes
// each; class ranges are two numbers of 8 bytes (shared between copies, so this over-counts).
const BYTES_PER_INSTRUCTION = 112;
const BYTES_PER_RANGE = 16;

/**
 * RE2's program size of a compiled re2js regex (instructions plus class ranges) and an upper
 * bound on its memory. Falls back to the public instruction count if the internals move.
 */
function measure(re: RE2JS): { programSize: number; approximateBytes: number } {
  const instructions = re.programSize();
  const program = (re as unknown as { re2Input?: { prog?: Re2jsProgram } }).re2Input?.prog;
  let ranges = 0;
  for (const inst of program?.inst ?? []) ranges += (inst.runes?.length ?? 0) >> 1;
  return {
    programSize: instructions + ranges,
    approximateBytes: instructions * BYTES_PER_INSTRUCTION + ranges * BYTES_PER_RANGE,
  };
}

/**
 * RE2 in pure JavaScript (a port of Go's `regexp`): works the same in Node and in browsers, and
 * holds no native memory, so `dispose()` is a no-op. `testExact()` is RE2's full match, anchored
 * by the engine itself, so the pattern is compiled as written.
 *
 * @example
 * ```ts
 * re2jsEngine.compile('(?i)web-.*').fullMatch('WEB-1'); // true
 * compileFilter('name eq "web-.*"', schema, { regexEngine: re2jsEngine });
 * ```
 */
export const re2jsEngine: RegexEngine = {
  name: 're2js',
  compile(pattern: string): CompiledRegex {
    let re: RE2JS;
    try {
      re = RE2JS.compile(pattern);
    } catch (error) {
      if (error instanceof RE2JSSyntaxException) {
        throw new RegexSyntaxError(error.message, { cause: error });
      }
      throw error;
    }
    return {
      ...measure(re),
      fullMatch: (input) => re.testExact(input),
      dispose: () => {},
    };
  },
  programSizeLowerBound: re2ProgramSizeLowerBound,
};
