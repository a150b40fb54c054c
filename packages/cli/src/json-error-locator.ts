// Where malformed JSON goes wrong, found by a small iterative validator: V8's JSON.parse names no
// position for some errors ("Unexpected token '}', ... is not valid JSON"), so a message built from
// it would point at the end of the line. This runs only after JSON.parse has failed.

/** The first error in a JSON text: its 0-based offset (UTF-16 units) and what is wrong there. */
export interface JsonErrorSite {
  offset: number;
  message: string;
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

/** A character as a message shows it: quoted and escaped, so a raw newline never reaches stderr. */
export function showChar(text: string, offset: number): string {
  if (offset >= text.length) return 'the end of the input';
  const code = text.codePointAt(offset) ?? 0;
  return JSON.stringify(String.fromCodePoint(code));
}

/**
 * The first error of `text` as one JSON value, or undefined when it is valid JSON.
 *
 * @example
 * ```ts
 * locateJsonError('{"a":}'); // { offset: 5, message: 'expected a value, found "}"' }
 * ```
 */
export function locateJsonError(text: string): JsonErrorSite | undefined {
  const stack: number[] = []; // 0: array, 1: object
  let i = 0;
  let state: 'value' | 'firstValue' | 'key' | 'firstKey' | 'after' = 'value';
  const skipWhitespace = () => {
    while (i < text.length && WHITESPACE.has(text.charCodeAt(i))) i++;
  };
  const fail = (message: string): JsonErrorSite => ({ offset: i, message });
  for (;;) {
    skipWhitespace();
    if (i >= text.length && !(state === 'after' && stack.length === 0)) {
      return fail('unexpected end of input');
    }
    const c = text[i];
    if (state === 'value' || state === 'firstValue') {
      if (c === '{' || c === '[') {
        stack.push(c === '{' ? 1 : 0);
        i++;
        state = c === '{' ? 'firstKey' : 'firstValue';
        continue;
      }
      if (c === ']' && state === 'firstValue') {
        stack.pop();
        i++;
        state = 'after';
        continue;
      }
      const end = scalarEnd(text, i);
      if (typeof end !== 'number') return end;
      i = end;
      state = 'after';
      continue;
    }
    if (state === 'key' || state === 'firstKey') {
      if (c === '}' && state === 'firstKey') {
        stack.pop();
        i++;
        state = 'after';
        continue;
      }
      if (c !== '"')
        return fail(`expected a double-quoted property name, found ${showChar(text, i)}`);
      const end = stringEnd(text, i);
      if (typeof end !== 'number') return end;
      i = end;
      skipWhitespace();
      if (text[i] !== ':')
        return fail(`expected ':' after a property name, found ${showChar(text, i)}`);
      i++;
      state = 'value';
      continue;
    }
    if (stack.length === 0) {
      return i < text.length
        ? fail(`unexpected ${showChar(text, i)} after the JSON value`)
        : undefined;
    }
    const top = stack[stack.length - 1];
    if (c === ',') {
      i++;
      state = top === 1 ? 'key' : 'value';
    } else if ((top === 1 && c === '}') || (top === 0 && c === ']')) {
      stack.pop();
      i++;
    } else {
      return fail(`expected ',' or '${top === 1 ? '}' : ']'}', found ${showChar(text, i)}`);
    }
  }
}

function scalarEnd(text: string, at: number): number | JsonErrorSite {
  const c = text[at];
  if (c === '"') return stringEnd(text, at);
  for (const literal of ['true', 'false', 'null']) {
    if (c !== literal[0]) continue;
    for (let k = 1; k < literal.length; k++) {
      if (text[at + k] !== literal[k]) {
        return { offset: at + k, message: `unexpected ${showChar(text, at + k)} in ${literal}` };
      }
    }
    return at + literal.length;
  }
  NUMBER.lastIndex = at;
  const number = NUMBER.exec(text);
  if (number && number[0].length > 0 && number[0] !== '-') return at + number[0].length;
  return { offset: at, message: `expected a value, found ${showChar(text, at)}` };
}

function stringEnd(text: string, at: number): number | JsonErrorSite {
  for (let j = at + 1; j < text.length; j++) {
    const code = text.charCodeAt(j);
    if (code === 0x22) return j + 1;
    if (code < 0x20) {
      return { offset: j, message: `a control character (${showChar(text, j)}) inside a string` };
    }
    if (code !== 0x5c) continue;
    const next = text[j + 1];
    if (next === 'u') {
      if (!/^[0-9a-fA-F]{4}$/.test(text.slice(j + 2, j + 6))) {
        return { offset: j, message: 'a bad \\u escape in a string' };
      }
      j += 5;
    } else if (next !== undefined && ESCAPES.has(next)) {
      j++;
    } else {
      return { offset: j, message: `a bad escape (\\${next ?? ''}) in a string` };
    }
  }
  return { offset: text.length, message: 'a string is not closed' };
}
