// The loop that times a predicate over records, shared by run.mjs, check.mjs and
// compare-builds.mjs.

let loops = 0;

/**
 * A function that counts the items `pred` accepts, with a loop of its own: each call compiles a
 * new loop whose source differs from every other (a numbered comment), so that its call of
 * `pred` has its own type feedback. V8 caches `new Function` by source text: loops of the same
 * text share one feedback vector and one optimized code, whose call of `pred` then sees every
 * predicate timed in the process, turns megamorphic and inlines none (a loop of the same text
 * as four others took 0.54 ms over 100,000 objects where one of its own took 0.18 ms; issue 38).
 *
 * @example
 * const run = counting((r) => r.name.startsWith('web-'), rules);
 * run(); // the number of matches
 */
export function counting(pred, items) {
  const loop = new Function(
    'pred',
    'items',
    `// counting loop ${++loops}
    let n = 0;
    for (let i = 0; i < items.length; i++) if (pred(items[i])) n++;
    return n;`,
  );
  return () => loop(pred, items);
}
