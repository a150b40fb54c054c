// GoogleSQL's constants and identifiers as the dialect writes them.

/**
 * A string constant from a schema (a field name, an enum label), never from a request: GoogleSQL
 * escapes with `\`, and a control character (a quoted string may hold no newline or carriage
 * return) is written as its `\u` escape.
 */
export function spannerString(text: string): string {
  const escaped = text
    .replace(/[\\']/g, (c) => `\\${c}`)
    .replace(
      /[\u0000-\u001f\u007f]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  return `'${escaped}'`;
}

/** An identifier from code, in backticks; a dotted name (a named schema) quotes each part. */
export function spannerIdentifier(name: string): string {
  return name
    .split('.')
    .map((part) => `\`${part.replace(/[\\`]/g, (c) => `\\${c}`)}\``)
    .join('.');
}
