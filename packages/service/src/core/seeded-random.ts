/**
 * A small deterministic generator (mulberry32): numbers in [0, 1), the same sequence for the same
 * seed on every run and platform. Not for secrets. The one generator of the project's
 * reproducible data: the sample forwarding rules, the playground's datasets and the filters
 * `listkit conform` makes (its `--seed`).
 *
 * @example
 * ```ts
 * const next = seededRandom(42);
 * const roll = Math.floor(next() * 6) + 1; // the same roll for seed 42, every time
 * ```
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
