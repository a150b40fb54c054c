// How deep JSON text nests and how many objects and arrays it holds, found by one loop over the
// text and no recursion: so a body nested 100,000 deep gets a located refusal before anything
// that recurses (schema inference, filters, printing) ever sees it. The one depth scan of JSON
// text: `listkit conform` runs it over response bodies, `listkit filter` over NDJSON lines (its
// streaming reader counts the same brackets byte by byte as they arrive).

export interface JsonNesting {
  /** Objects and arrays in the text (they cost memory beyond their text once parsed). */
  containers: number;
  /** Where the text first nests deeper than allowed (1-based line and column), if it does. */
  tooDeep?: { line: number; column: number; offset: number };
}

/**
 * Scans JSON text (valid or not: strings and escapes are skipped, anything else is left to the
 * parser) for its nesting. Stops at the first bracket past `maxDepth`.
 *
 * @example
 * scanJsonNesting('{"a":[[1]]}', 2).tooDeep; // { line: 1, column: 7, offset: 6 }
 * scanJsonNesting('{"a":[[1]]}', 3).containers; // 3
 */
export function scanJsonNesting(text: string, maxDepth: number): JsonNesting {
  let depth = 0;
  let containers = 0;
  let line = 1;
  let lineStart = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      containers++;
      if (++depth > maxDepth) {
        return { containers, tooDeep: { line, column: i - lineStart + 1, offset: i } };
      }
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
    else if (c === 0x0a /* \n */) {
      line++;
      lineStart = i + 1;
    }
  }
  return { containers };
}

/**
 * Where JSON text first nests deeper than `maxDepth`, if it does: {@link scanJsonNesting}'s
 * answer, found in a fraction of its time for text with few brackets. Nesting past `maxDepth`
 * needs more than `maxDepth` opening brackets, which native `indexOf` counts; only text with
 * that many gets the full scan (a record of an API holds a few dozen).
 *
 * @example
 * nestsTooDeep('{"a":[[1]]}', 2); // { line: 1, column: 7, offset: 6 }
 * nestsTooDeep('{"a":[[1]]}', 3); // undefined, without scanning
 */
export function nestsTooDeep(text: string, maxDepth: number): JsonNesting['tooDeep'] {
  let brackets = 0;
  for (const open of ['{', '[']) {
    for (let i = text.indexOf(open); i >= 0; i = text.indexOf(open, i + 1)) {
      if (++brackets > maxDepth) return scanJsonNesting(text, maxDepth).tooDeep;
    }
  }
  return undefined;
}
