/**
 * An RE2-class regular-expression engine: linear-time matching, no backtracking. User patterns
 * from regex-style filters only ever reach an engine through this interface, never JS `RegExp`.
 *
 * @example
 * ```ts
 * const engine: RegexEngine = re2jsEngine;
 * engine.compile('web-[0-9]+').fullMatch('web-12'); // true
 * ```
 */
export interface RegexEngine {
  /** A short name for logs and benchmarks, such as `re2js` or `re2-wasm`. */
  readonly name: string;
  /**
   * Compiles an RE2 pattern for full matching (the whole input must match).
   * Throws {@link RegexSyntaxError} when the pattern is not valid RE2.
   */
  compile(pattern: string): CompiledRegex;
  /**
   * A lower bound on {@link CompiledRegex.programSize} read from the pattern text, without
   * compiling, or undefined when the engine has none for this pattern. Never more than the
   * compiled size: a {@link RegexCache} refuses a pattern whose bound is over the limit without
   * compiling it (a 5 KB pattern of counted repetitions takes re2js ~0.5 s to compile).
   */
  programSizeLowerBound?(pattern: string): number | undefined;
}

/**
 * A compiled pattern.
 *
 * @example
 * ```ts
 * const regex: CompiledRegex = re2jsEngine.compile('a+');
 * regex.fullMatch('aaa'); // true
 * regex.dispose();
 * ```
 */
export interface CompiledRegex {
  /** True when the pattern matches the entire input. */
  fullMatch(input: string): boolean;
  /**
   * The size of the compiled program in RE2's sense: one unit per instruction, plus one per range
   * of a character class (C++ RE2 compiles each range into its own UTF-8 instructions). Undefined
   * when the engine enforces its own limit (re2-wasm: C++ RE2's `max_mem`).
   */
  readonly programSize?: number;
  /** An upper bound on the memory the compiled regex holds, in bytes; the cache budgets with it. */
  readonly approximateBytes: number;
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

/**
 * Thrown by {@link RegexCache} when a pattern compiles to a program larger than allowed: the
 * pattern is valid RE2, but matching it would cost too much memory and time. When the engine's
 * {@link RegexEngine.programSizeLowerBound} already exceeds the limit, the pattern is refused
 * without compiling: `atLeast` is true and `programSize` is that bound.
 *
 * @example
 * ```ts
 * try {
 *   cache.acquire('(.{1000}|.{999}|.{998})q', 1000);
 * } catch (e) {
 *   if (e instanceof RegexTooLargeError) console.log(e.programSize, e.limit, e.atLeast); // 2996 1000 true
 * }
 * ```
 */
export class RegexTooLargeError extends Error {
  override readonly name = 'RegexTooLargeError';
  constructor(
    readonly programSize: number,
    readonly limit: number,
    readonly atLeast = false,
  ) {
    super(
      `the compiled program has ${atLeast ? 'at least ' : ''}${programSize} instructions, more than the limit of ${limit}`,
    );
  }
}
