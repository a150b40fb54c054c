/**
 * An RE2-class regular-expression engine: linear-time matching, no backtracking. User patterns
 * from regex-style filters only ever reach an engine through this interface, never JS `RegExp`.
 */
export interface RegexEngine {
  /** A short name for logs and benchmarks, such as `re2js` or `re2-wasm`. */
  readonly name: string;
  /**
   * Compiles an RE2 pattern for full matching (the whole input must match).
   * Throws {@link RegexSyntaxError} when the pattern is not valid RE2.
   */
  compile(pattern: string): CompiledRegex;
}

/** A compiled pattern. */
export interface CompiledRegex {
  /** True when the pattern matches the entire input. */
  fullMatch(input: string): boolean;
  /** Releases engine memory (re2-wasm's heap is fixed); the regex must not be used after. */
  dispose(): void;
}

/**
 * Thrown by {@link RegexEngine.compile} for an invalid pattern; `message` is the engine's reason.
 *
 * @example
 * ```ts
 * try {
 *   re2jsEngine.compile('a(?=b)');
 * } catch (e) {
 *   if (e instanceof RegexSyntaxError) console.log(e.message); // lookaheads are not RE2
 * }
 * ```
 */
export class RegexSyntaxError extends Error {
  override readonly name = 'RegexSyntaxError';
}
