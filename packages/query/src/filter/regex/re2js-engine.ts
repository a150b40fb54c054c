import { RE2JS, RE2JSSyntaxException } from 're2js';
import { type CompiledRegex, type RegexEngine, RegexSyntaxError } from './regex-engine.js';

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
      fullMatch: (input) => re.testExact(input),
      dispose: () => {},
    };
  },
};
