import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { answeredAsAsked, indentJson, jsonAsAsked, prettyPrintAnswers } from './pretty-print.js';

describe('indentJson writes JSON as Google indents it', () => {
  it('indents by two spaces, ": " after names, {} and [] kept empty, a final newline', () => {
    const value = { kind: 'k', items: [{ name: 'a', labels: {} }, 2], tags: [], n: null };
    const text = JSON.stringify(value);
    expect(indentJson(text)).toBe(`${JSON.stringify(value, null, 2)}\n`);
  });

  it('keeps every value: escapes and separators inside strings', () => {
    const text = '{"a":"x,{}[]:\\"\\\\\\u2028"}';
    expect(indentJson(text)).toBe('{\n  "a": "x,{}[]:\\"\\\\\u2028"\n}\n');
  });

  it('returns text that is not JSON unchanged', () => {
    for (const text of ['{"a":', '"open', '}', 'plain', '"a string"', '12']) {
      expect(indentJson(text)).toBe(text);
    }
  });
});

describe('prettyPrintAnswers', () => {
  const app = new Hono();
  app.use(
    '*',
    prettyPrintAnswers(() => true),
  );
  const json = { 'content-type': 'application/json' };
  app.get('/later', (c) => c.body('{"a":[1]}', 200, json));
  app.get('/marked', (c) => answeredAsAsked(c.body('{"a":[1]}', 200, json)));
  app.get('/as-asked', (c) => answeredAsAsked(c.body(jsonAsAsked(c, { a: [1] }), 200, json)));
  const body = async (path: string) => (await app.request(path)).text();

  it('indents an answer afterwards unless the call says prettyPrint=false', async () => {
    expect(await body('/later')).toBe('{\n  "a": [\n    1\n  ]\n}\n');
    expect(await body('/later?prettyPrint=false')).toBe('{"a":[1]}');
  });

  it('sends an answer its route wrote as asked as it is, the same bytes', async () => {
    expect(await body('/as-asked')).toBe(await body('/later'));
    expect(await body('/as-asked?prettyPrint=false')).toBe('{"a":[1]}');
    // Marked, so not read back: a compact text a route marks stays compact.
    expect(await body('/marked')).toBe('{"a":[1]}');
  });
});
