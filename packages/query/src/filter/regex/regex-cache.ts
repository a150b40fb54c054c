import type { CompiledRegex, RegexEngine } from './regex-engine.js';

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
 * cache holds at most `capacity` regexes and disposes the ones it drops.
 *
 * Two ways to borrow a regex:
 * - {@link get} is for immediate use only: the regex may be disposed by any later `get`,
 *   `acquire` or `clear` on this cache, so never keep it.
 * - {@link acquire} is for holders such as compiled filter predicates: the regex stays usable
 *   until the matching {@link release}, even if the cache evicts it meanwhile.
 *
 * @example
 * ```ts
 * const cache = new RegexCache(re2WasmEngine, 256);
 * const regex = cache.acquire('web-[0-9]+');
 * regex.fullMatch('web-12'); // true
 * cache.release(regex);
 * ```
 */
export class RegexCache {
  readonly #engine: RegexEngine;
  readonly #capacity: number;
  /** Cached entries; Map iteration order is the LRU order, least recently used first. */
  readonly #entries = new Map<string, Entry>();
  /** Entries with refs > 0, including evicted ones, by the regex handed out. */
  readonly #acquired = new Map<CompiledRegex, Entry>();

  constructor(engine: RegexEngine, capacity = 1000) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`RegexCache capacity must be a positive integer, got ${capacity}`);
    }
    this.#engine = engine;
    this.#capacity = capacity;
  }

  /** The number of cached patterns (evicted regexes still acquired are not counted). */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * The compiled `pattern`, compiling it on a miss. For immediate use only (see the class doc).
   * Throws the engine's `RegexSyntaxError` for an invalid pattern, which is not cached.
   */
  get(pattern: string): CompiledRegex {
    return this.#lookup(pattern).compiled;
  }

  /** Like {@link get}, but the regex stays usable until {@link release} is called with it. */
  acquire(pattern: string): CompiledRegex {
    const entry = this.#lookup(pattern);
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

  /** Empties the cache, disposing every regex that is not acquired (those go on release). */
  clear(): void {
    for (const entry of this.#entries.values()) this.#drop(entry);
    this.#entries.clear();
  }

  #lookup(pattern: string): Entry {
    let entry = this.#entries.get(pattern);
    if (entry !== undefined) {
      // Re-insert to mark it most recently used.
      this.#entries.delete(pattern);
      this.#entries.set(pattern, entry);
      return entry;
    }
    entry = { compiled: this.#engine.compile(pattern), refs: 0, evicted: false };
    this.#entries.set(pattern, entry);
    for (const [oldest, old] of this.#entries) {
      if (this.#entries.size <= this.#capacity) break;
      this.#entries.delete(oldest);
      this.#drop(old);
    }
    return entry;
  }

  #drop(entry: Entry): void {
    entry.evicted = true;
    if (entry.refs === 0) entry.compiled.dispose();
  }
}
