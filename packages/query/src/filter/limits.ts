/**
 * Bounds that keep any filter cheap to parse and evaluate ("queries of death").
 *
 * @example
 * ```ts
 * const limits: FilterLimits = { ...DEFAULT_FILTER_LIMITS, maxLength: 2048 };
 * parseFilter(text, { limits });
 * ```
 */
export interface FilterLimits {
  /** Maximum filter length in UTF-16 code units. Default 8192. */
  maxLength: number;
  /**
   * Maximum nesting of parentheses and function calls. Default 32; values above
   * {@link MAX_FILTER_DEPTH} are lowered to it, so that parsing never exhausts the stack.
   */
  maxDepth: number;
  /** Maximum number of restrictions (comparisons, bare values, regex terms). Default 256. */
  maxTerms: number;
  /**
   * Maximum size of the compiled RE2 programs of one regex-style filter, all patterns together,
   * in RE2's units (instructions plus character-class ranges). Default 100,000.
   */
  maxProgramSize: number;
}

/**
 * The default {@link FilterLimits}; `docs/filter-language.md` explains the choice.
 *
 * @example
 * ```ts
 * parseFilter(text, { limits: { ...DEFAULT_FILTER_LIMITS, maxTerms: 64 } });
 * ```
 */
export const DEFAULT_FILTER_LIMITS: Readonly<FilterLimits> = Object.freeze({
  maxLength: 8192,
  maxDepth: 32,
  maxTerms: 256,
  maxProgramSize: 100_000,
});

/** The deepest nesting any configuration may allow (the parser recurses once per level). */
export const MAX_FILTER_DEPTH = 100;
