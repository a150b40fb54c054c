import { ListkitError } from '../errors.js';

const SIMPLE: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
  '`': '`',
};

const HEX = /^[0-9a-fA-F]+$/;

/** A decoded string literal: its value, and which `*` in it were escaped (not wildcards). */
export interface DecodedString {
  value: string;
  literalStars: number[];
}

/**
 * Decodes a quoted AIP-160 string literal (quotes included in `raw`). Escapes follow CEL and
 * AIP-160: `\a \b \f \n \r \t \v \\ \' \" \? \``, `\xHH`, `\uXXXX`, `\UXXXXXXXX`, octal
 * `\[0-3][0-7][0-7]`, and `\*` for a literal star.
 * `offset` is where `raw` starts in `source`, so errors point at the bad escape.
 */
export function decodeString(raw: string, offset: number, source: string): DecodedString {
  if (!raw.includes('\\')) return { value: raw.slice(1, -1), literalStars: [] };
  let value = '';
  const literalStars: number[] = [];
  const body = raw.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      value += c;
      continue;
    }
    const start = offset + 1 + i;
    const e = body[i + 1];
    const fail = (len: number, why: string): never => {
      throw ListkitError.of('filter', 'invalid_escape', why, { start, end: start + len }, source);
    };
    if (e === undefined) fail(1, "a string cannot end with '\\'");
    if (e === '*') {
      literalStars.push(value.length);
      value += '*';
      i++;
    } else if (e! in SIMPLE) {
      value += SIMPLE[e!];
      i++;
    } else if (e === 'x' || e === 'X' || e === 'u' || e === 'U') {
      const len = e === 'u' ? 4 : e === 'U' ? 8 : 2;
      const hex = body.slice(i + 2, i + 2 + len);
      if (hex.length !== len || !HEX.test(hex)) {
        fail(2 + hex.length, `'\\${e}' needs exactly ${len} hexadecimal digits`);
      }
      const code = Number.parseInt(hex, 16);
      if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
        fail(2 + len, `'\\${e}${hex}' is not a Unicode scalar value`);
      }
      value += String.fromCodePoint(code);
      i += 1 + len;
    } else if (e! >= '0' && e! <= '3') {
      const oct = body.slice(i + 1, i + 4);
      if (!/^[0-3][0-7][0-7]$/.test(oct))
        fail(1 + oct.length, 'an octal escape is \\ and three digits 000-377');
      value += String.fromCharCode(Number.parseInt(oct, 8));
      i += 3;
    } else {
      fail(2, `unknown escape '\\${e}'`);
    }
  }
  return { value, literalStars };
}

/**
 * Encodes a value as a double-quoted literal that {@link decodeString} reads back unchanged.
 * Stars listed in `literalStars` are written `\*`.
 */
export function encodeString(value: string, literalStars: readonly number[] = []): string {
  const stars = new Set(literalStars);
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    const code = value.charCodeAt(i);
    if (c === '*' && stars.has(i)) out += '\\*';
    else if (c === '"' || c === '\\') out += `\\${c}`;
    else if (c === '\n') out += '\\n';
    else if (c === '\t') out += '\\t';
    else if (c === '\r') out += '\\r';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += c;
  }
  return `${out}"`;
}
