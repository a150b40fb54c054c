import { refuse } from '../core/refusal.js';
import { previewText } from '../core/value-preview.js';

/**
 * Compute Engine's label rules, the one place they are written
 * (https://cloud.google.com/compute/docs/labeling-resources): at most 64 labels; keys 1-63
 * characters that start with a lowercase letter or an international character; keys and values
 * hold lowercase letters, international characters, digits, `_` and `-`; values may be empty and
 * hold at most 63 characters. Lengths count characters (code points), not bytes.
 *
 * @example
 * ```ts
 * LABEL_LIMITS.labels; // 64
 * ```
 */
export const LABEL_LIMITS = { labels: 64, key: 63, value: 63 } as const;

// \p{Ll}: lowercase letters (any script); \p{Lo}: letters without case (CJK, Arabic, …).
const LABEL_KEY = /^[\p{Ll}\p{Lo}][\p{Ll}\p{Lo}\p{N}_-]{0,62}$/u;
const LABEL_VALUE = /^[\p{Ll}\p{Lo}\p{N}_-]{0,63}$/u;

/**
 * Checks a label set (already known to be a map of strings) against {@link LABEL_LIMITS} and the
 * character rules; throws 400 `invalid` at `location` (`resource.labels` on insert and patch,
 * `labels` on setLabels), quoting at most a short prefix of a bad key or value.
 *
 * @example
 * ```ts
 * checkLabels({ env: 'prod', 'é': 'ß' }, 'labels'); // passes
 * checkLabels({ Env: 'prod' }, 'labels'); // throws 400
 * ```
 */
export function checkLabels(labels: Readonly<Record<string, string>>, location: string): void {
  const entries = Object.entries(labels);
  const invalid = (why: string) =>
    refuse.invalid(`Invalid value for field '${location}': ''. ${why}`, location);
  if (entries.length > LABEL_LIMITS.labels) {
    throw invalid(
      `A resource can have at most ${LABEL_LIMITS.labels} labels, not ${entries.length}.`,
    );
  }
  for (const [key, value] of entries) {
    // The length guard first: a regex over a megabyte-long key would still be linear, but the
    // message must not quote it.
    if (key.length > 2 * LABEL_LIMITS.key || !LABEL_KEY.test(key)) {
      throw invalid(
        `Label key '${previewText(key)}' violates format constraints. The key must start with a lowercase character or an international character, can only contain lowercase letters, numeric characters, underscores and dashes. The key can be at most ${LABEL_LIMITS.key} characters long. International characters are allowed.`,
      );
    }
    if (value.length > 2 * LABEL_LIMITS.value || !LABEL_VALUE.test(value)) {
      throw invalid(
        `Label value '${previewText(value)}' violates format constraints. The value can only contain lowercase letters, numeric characters, underscores and dashes. The value can be at most ${LABEL_LIMITS.value} characters long. International characters are allowed.`,
      );
    }
  }
}
