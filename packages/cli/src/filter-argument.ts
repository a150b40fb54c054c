// AIP-160 spells NOT as a leading '-' ('-region:Europe'), which an option parser takes for options.
// The first argument after `filter` that starts with a single '-' and is no option of the command
// is the filter: it is marked before commander parses the arguments and unmarked in the action.

const MARK = '\u0000filter:';
/** Short options of `listkit filter` (a lone '-' is stdin, a file). */
const SHORT_OPTIONS = new Set(['-h']);

/**
 * `argv` with a negated filter marked so that commander reads it as the filter argument.
 *
 * @example
 * ```ts
 * protectFilter(['node', 'listkit', 'filter', '-region:Europe', 'a.json']);
 * // ['node', 'listkit', 'filter', '\u0000filter:-region:Europe', 'a.json']
 * ```
 */
export function protectFilter(argv: readonly string[]): string[] {
  const out = [...argv];
  const command = out.indexOf('filter', 2);
  if (command !== 2) return out;
  for (let i = command + 1; i < out.length; i++) {
    const arg = out[i]!;
    if (arg === '--') break;
    if (arg.startsWith('--')) {
      // An option's value follows it unless given with '='.
      if (!arg.includes('=') && !FLAGS.has(arg)) i++;
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1 && !SHORT_OPTIONS.has(arg)) {
      out[i] = `${MARK}${arg}`;
    }
    break;
  }
  return out;
}

/** Options of `listkit filter` that take no value. */
const FLAGS = new Set([
  '--explain',
  '--sql',
  '--print-schema',
  '--keep-going',
  '--atomic',
  '--help',
]);

/** The filter as the user wrote it. */
export function unprotectFilter(filter: string): string {
  return filter.startsWith(MARK) ? filter.slice(MARK.length) : filter;
}
