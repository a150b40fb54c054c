// GoogleSQL's constants and identifiers as the dialect writes them.

/** A string constant from a schema (a field name), never from a request: GoogleSQL escapes with `\`. */
export function spannerString(text: string): string {
  return `'${text.replace(/[\\']/g, (c) => `\\${c}`).replace(/\n/g, '\\n')}'`;
}

/** An identifier from code, in backticks; a dotted name (a named schema) quotes each part. */
export function spannerIdentifier(name: string): string {
  return name
    .split('.')
    .map((part) => `\`${part.replace(/[\\`]/g, (c) => `\\${c}`)}\``)
    .join('.');
}
