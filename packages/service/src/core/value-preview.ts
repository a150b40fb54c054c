/** The longest preview of a value that an error message quotes. */
export const PREVIEW_CHARS = 64;

/**
 * A short, bounded rendering of any JSON value for an error message: strings and scalars as
 * JSON, lists and objects shown at most two levels deep with their sizes, the whole cut at
 * {@link PREVIEW_CHARS} characters. It never recurses deeper than two levels, so a 10,000-deep
 * array costs no more than a flat one (`JSON.stringify` of such a value overflows the stack).
 *
 * @example
 * ```ts
 * previewValue([[[[1]]]]); // '[[[…1 item]]]'
 * previewValue('x'.repeat(100)); // '"xxxx…' (64 characters and an ellipsis)
 * ```
 */
export function previewValue(value: unknown): string {
  return clip(render(value, 2));
}

/** A string value quoted as given, or cut to {@link PREVIEW_CHARS} characters and `…`. */
export function previewText(text: string): string {
  return clip(text);
}

function render(value: unknown, depth: number): string {
  if (typeof value === 'string') return JSON.stringify(clip(value));
  if (value === null || typeof value !== 'object') return String(value);
  if (Array.isArray(value)) {
    if (depth === 0) return `[…${count(value.length, 'item')}]`;
    return `[${value
      .slice(0, 4)
      .map((item) => render(item, depth - 1))
      .join(',')}${value.length > 4 ? ',…' : ''}]`;
  }
  const keys = Object.keys(value);
  if (depth === 0) return `{…${count(keys.length, 'field')}}`;
  return `{${keys
    .slice(0, 4)
    .map(
      (key) =>
        `${JSON.stringify(clip(key))}:${render((value as Record<string, unknown>)[key], depth - 1)}`,
    )
    .join(',')}${keys.length > 4 ? ',…' : ''}}`;
}

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

function clip(text: string): string {
  if (text.length <= PREVIEW_CHARS) return text;
  // Array.from counts code points, so a cut never splits a surrogate pair.
  const chars = Array.from(text.slice(0, PREVIEW_CHARS * 2));
  if (chars.length <= PREVIEW_CHARS && text.length <= PREVIEW_CHARS * 2) return text;
  return `${chars.slice(0, PREVIEW_CHARS).join('')}…`;
}
