const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Whether a text is an RFC 3339 timestamp (`2024-01-01T00:00:00.000-07:00`, `…Z`) naming a real
 * instant. `Date.parse` alone accepts many other forms (`2024-01-01`, `Jan 1 2024`).
 *
 * @example
 * ```ts
 * isRfc3339('2024-01-01T00:00:00Z'); // true
 * isRfc3339('yesterday'); // false
 * ```
 */
export function isRfc3339(text: string): boolean {
  return RFC3339.test(text) && !Number.isNaN(Date.parse(text));
}
