// MySQL's and MariaDB's constants and identifiers as the dialect writes them.

/**
 * Strings in listkit's layout: VARBINARY, whose comparisons are by byte, which on UTF-8 text is
 * code-point order, with no padding, on both engines. The collations that would do the same
 * are named differently (MySQL `utf8mb4_0900_bin`, MariaDB `utf8mb4_nopad_bin`), and the one
 * name both have, `utf8mb4_bin`, is PAD SPACE (`'a' = 'a '`). 1024 bytes: three such columns fit
 * InnoDB's 3072-byte index key (an ordering, a tie-breaker and the key).
 */
export const MYSQL_TEXT_BYTES = 1024;

/**
 * A string constant that reads the same whatever `sql_mode` says: plain when it has no
 * backslash (which `NO_BACKSLASH_ESCAPES` reads differently) and is printable ASCII, else as
 * UTF-8 hex with its character set named.
 */
export function mysqlLiteral(text: string): string {
  if (/^[\x20-\x5b\x5d-\x7e]*$/.test(text)) return `'${text.replaceAll("'", "''")}'`;
  const hex = [...new TextEncoder().encode(text)].map((b) => b.toString(16).padStart(2, '0'));
  return `_utf8mb4 X'${hex.join('')}'`;
}

/** A quoted identifier: `name`, with inner backticks doubled; a dotted name quotes each part. */
export function mysqlIdentifier(name: string): string {
  return name
    .split('.')
    .map((part) => `\`${part.replaceAll('`', '``')}\``)
    .join('.');
}
