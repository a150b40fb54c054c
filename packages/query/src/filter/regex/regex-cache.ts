import { type CompiledRegex, type RegexEngine, RegexTooLargeError } from './regex-engine.js';

/**
 * Bounds of a {@link RegexCache}.
 *
 * @example
 * ```ts
 * new RegexCache(re2jsEngine, { capacity: 500, maxBytes: 16 * 1024 * 1024 });
 * ```
 */
export interface RegexCacheLimits {
  /** The most patterns kept. Default 1000. */
  capacity?: number;
  /** The most memory kept, by the engines' {@link CompiledRegex.approximateBytes}. Default 16 MiB. */
  maxBytes?: number;
  /** The most patterns remembered as too large (without their programs). Default 256. */
  refusals?: number;
  /** The most pattern text remembered as too large, in bytes (2 per UTF-16 unit). Default 1 MiB. */
  refusalBytes?: number;
}

/**
 * The default byte budget of a {@link RegexCache}: 16 MiB. What the cache keeps stays in the
 * heap: after 500 distinct ~3.5 KB regex filters, RSS stayed 125 MB higher with a 64 MiB budget
 * and 44 MB with 16 MiB, compiling as fast (test/bench/regex-burst-memory.mjs). Ordinary patterns
 * weigh a few KB each, so 1,000 of them fit either way.
 *
 * @example
 * ```ts
 * new RegexCache(re2jsEngine, { maxBytes: DEFAULT_REGEX_CACHE_BYTES / 4 });
 * ```
 */
export const DEFAULT_REGEX_CACHE_BYTES = 16 * 1024 * 1024;

/** What the cache keeps of a pattern refused as too large: its size, not its program. */
interface Refusal {
  readonly programSize: number;
  /** `programSize` is the engine's lower bound: the pattern was never compiled. */
  readonly atLeast: boolean;
  readonly bytes: number;
}

/** Memory charged for a remembered refusal besides its pattern text (the map entry, the record). */
const REFUSAL_OVERHEAD_BYTES = 96;

interface Entry {
  readonly compiled: CompiledRegex;
  /** Outstanding {@link RegexCache.acquire} calls not yet released. */
  refs: number;
  /** No longer in the cache; disposed on the last release. */
  evicted: boolean;
}

/**
 * A bounded LRU cache of compiled patterns, keyed by pattern text. Compiling is expensive (re2js
 * ~50 µs, re2-wasm ~300 µs) and re2-wasm keeps every live regex on a fixed 16 MiB heap, so the
 * cache holds at most `capacity` regexes and `maxBytes` of them (one large program can weigh as
 * much as thousands of small ones), and disposes the ones it drops. A regex larger than the whole
 * budget is kept only until the next compile.
 *
 * A pattern refused for its size is remembered (its size only, in a separate bounded LRU), so
 * sending it again costs no compile; and an engine with a
 * {@link RegexEngine.programSizeLowerBound} (re2js) refuses one whose bound is already over the
 * limit without compiling it at all.
 *
 * Two ways to borrow a regex:
 * - {@link get} is for immediate use only: the regex may be disposed by any later `get`,
 *   `acquire` or `clear` on this cache, so never keep it.
 * - {@link acquire} is for holders such as compiled filter predicates: the regex stays usable
 *   until the matching {@link release}, even if the cache evicts it meanwhile.
 *
 * @example
 * ```ts
 * const cache = new RegexCache(re2WasmEngine, { capacity: 256, maxBytes: 8 << 20 });
 * const regex = cache.acquire('web-[0-9]+');
 * regex.fullMatch('web-12'); // true
 * cache.release(regex);
 * ```
 */
export class RegexCache {
  readonly #engine: RegexEngine;
  readonly #capacity: number;
  readonly #maxBytes: number;
  #bytes = 0;
  /** Cached entries; Map iteration order is the LRU order, least recently used first. */
  readonly #entries = new Map<string, Entry>();
  /** Entries with refs > 0, including evicted ones, by the regex handed out. */
  readonly #acquired = new Map<CompiledRegex, Entry>();
  /** Patterns refused as too large, least recently used first. */
  readonly #refusals = new Map<string, Refusal>();
  readonly #maxRefusals: number;
  readonly #maxRefusalBytes: number;
  #refusalBytes = 0;

  /** The engine this cache compiles with. */
  get engine(): RegexEngine {
    return this.#engine;
  }

  constructor(engine: RegexEngine, limits: RegexCacheLimits = {}) {
    const {
      capacity = 1000,
      maxBytes = DEFAULT_REGEX_CACHE_BYTES,
      refusals = 256,
      refusalBytes = 1024 * 1024,
    } = limits;
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`RegexCache capacity must be a positive integer, got ${capacity}`);
    }
    if (!(maxBytes > 0)) {
      throw new RangeError(`RegexCache maxBytes must be positive, got ${maxBytes}`);
    }
    if (!Number.isInteger(refusals) || refusals < 0) {
      throw new RangeError(`RegexCache refusals must be a non-negative integer, got ${refusals}`);
    }
    if (!(refusalBytes >= 0)) {
      throw new RangeError(`RegexCache refusalBytes must be non-negative, got ${refusalBytes}`);
    }
    this.#engine = engine;
    this.#capacity = capacity;
    this.#maxBytes = maxBytes;
    this.#maxRefusals = refusals;
    this.#maxRefusalBytes = refusalBytes;
  }

  /** The number of cached patterns (evicted regexes still acquired are not counted). */
  get size(): number {
    return this.#entries.size;
  }

  /** The approximate bytes of the cached patterns (evicted regexes still acquired are not counted). */
  get bytes(): number {
    return this.#bytes;
  }

  /** The number of patterns remembered as too large. */
  get refusals(): number {
    return this.#refusals.size;
  }

  /**
   * The compiled `pattern`, compiling it on a miss. For immediate use only (see the class doc).
   * Throws the engine's `RegexSyntaxError` for an invalid pattern (not cached), and
   * {@link RegexTooLargeError} when its program is larger than `maxProgramSize` (remembered, so
   * the same pattern is refused again without compiling).
   */
  get(pattern: string, maxProgramSize = Number.POSITIVE_INFINITY): CompiledRegex {
    return this.#lookup(pattern, maxProgramSize).compiled;
  }

  /** Like {@link get}, but the regex stays usable until {@link release} is called with it. */
  acquire(pattern: string, maxProgramSize = Number.POSITIVE_INFINITY): CompiledRegex {
    const entry = this.#lookup(pattern, maxProgramSize);
    entry.refs++;
    this.#acquired.set(entry.compiled, entry);
    return entry.compiled;
  }

  /** Ends one {@link acquire}; an evicted regex is disposed once its last holder releases it. */
  release(compiled: CompiledRegex): void {
    const entry = this.#acquired.get(compiled);
    if (entry === undefined) throw new Error('RegexCache.release: regex is not acquired');
    if (--entry.refs > 0) return;
    this.#acquired.delete(compiled);
    if (entry.evicted) entry.compiled.dispose();
  }

  /**
   * Empties the cache, disposing every regex that is not acquired (those go on release), and
   * forgets the refusals.
   */
  clear(): void {
    for (const entry of this.#entries.values()) this.#drop(entry);
    this.#entries.clear();
    this.#bytes = 0;
    this.#refusals.clear();
    this.#refusalBytes = 0;
  }

  #lookup(pattern: string, maxProgramSize: number): Entry {
    let entry = this.#entries.get(pattern);
    if (entry !== undefined) {
      checkSize(entry.compiled, maxProgramSize);
      // Re-insert to mark it most recently used.
      this.#entries.delete(pattern);
      this.#entries.set(pattern, entry);
      return entry;
    }
    const refusal = this.#refusals.get(pattern);
    if (refusal !== undefined) {
      this.#refusals.delete(pattern);
      this.#refusals.set(pattern, refusal);
      // Under a larger limit it may fit: compile then.
      if (refusal.programSize > maxProgramSize) {
        throw new RegexTooLargeError(refusal.programSize, maxProgramSize, refusal.atLeast);
      }
    }
    if (maxProgramSize < Number.POSITIVE_INFINITY) {
      const bound = this.#engine.programSizeLowerBound?.(pattern);
      if (bound !== undefined && bound > maxProgramSize) {
        this.#refuse(pattern, bound, true);
        throw new RegexTooLargeError(bound, maxProgramSize, true);
      }
    }
    const compiled = this.#engine.compile(pattern);
    try {
      checkSize(compiled, maxProgramSize);
    } catch (error) {
      compiled.dispose();
      if (error instanceof RegexTooLargeError) this.#refuse(pattern, error.programSize, false);
      throw error;
    }
    if (refusal !== undefined) this.#forget(pattern, refusal);
    entry = { compiled, refs: 0, evicted: false };
    this.#entries.set(pattern, entry);
    this.#bytes += compiled.approximateBytes;
    // Evict least recently used first. The new entry is last and stays, even alone over budget:
    // it is about to be used, and the next compile evicts it.
    for (const [oldest, old] of this.#entries) {
      if (oldest === pattern) break;
      if (this.#entries.size <= this.#capacity && this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= old.compiled.approximateBytes;
      this.#drop(old);
    }
    return entry;
  }

  /** Remembers a refusal, dropping the least recently used ones over the bounds. */
  #refuse(pattern: string, programSize: number, atLeast: boolean): void {
    const old = this.#refusals.get(pattern);
    if (old !== undefined) this.#forget(pattern, old);
    const bytes = 2 * pattern.length + REFUSAL_OVERHEAD_BYTES;
    if (this.#maxRefusals === 0 || bytes > this.#maxRefusalBytes) return;
    this.#refusals.set(pattern, { programSize, atLeast, bytes });
    this.#refusalBytes += bytes;
    for (const [oldest, refusal] of this.#refusals) {
      if (this.#refusals.size <= this.#maxRefusals && this.#refusalBytes <= this.#maxRefusalBytes)
        break;
      this.#forget(oldest, refusal);
    }
  }

  #forget(pattern: string, refusal: Refusal): void {
    this.#refusals.delete(pattern);
    this.#refusalBytes -= refusal.bytes;
  }

  #drop(entry: Entry): void {
    entry.evicted = true;
    if (entry.refs === 0) entry.compiled.dispose();
  }
}

function checkSize(compiled: CompiledRegex, maxProgramSize: number): void {
  const size = compiled.programSize;
  if (size !== undefined && size > maxProgramSize)
    throw new RegexTooLargeError(size, maxProgramSize);
}
