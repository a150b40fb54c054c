import type { FilterStyle } from './ast.js';
import { isSpaceCode } from './lexer.js';

// `field eq …` / `(field ne …`: the shape that selects Compute Engine's regex style. It must be
// recognised up front, because `name eq abc.*` is also a valid AIP-160 sequence of three values.
// An index such as `items[0]` is allowed here so that the regex parser can reject it clearly.
const REGEX_STYLE =
  /^\s*(?:\(\s*)?[A-Za-z_]\w*(?:\[\d*\])?(?:\.[A-Za-z_]\w*(?:\[\d*\])?)*\s+(?:eq|ne)(?=[\s)]|$)/;

/**
 * Tells which filter language a filter is written in, from the shape of its first term.
 *
 * @example
 * ```ts
 * detectFilterStyle('name eq "fr-.*"'); // 'regex'
 * detectFilterStyle('name = "fr-*"');   // 'aip-160'
 * detectFilterStyle('   ');             // 'empty'
 * ```
 */
export function detectFilterStyle(filter: string): FilterStyle {
  let at = 0;
  while (at < filter.length && isSpaceCode(filter.charCodeAt(at))) at++;
  if (at === filter.length) return 'empty';
  // Most filters have no `eq` or `ne` at all: two scans for them are cheaper than the pattern.
  if (!filter.includes('eq') && !filter.includes('ne')) return 'aip-160';
  return REGEX_STYLE.test(filter) ? 'regex' : 'aip-160';
}
