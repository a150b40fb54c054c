import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error.js';
import { checkBodyText, isAcceptedText, unacceptedText } from './request-text.js';

/** What checkBodyText throws for a body, as the field it names and its message. */
function refusal(body: unknown, root = 'resource') {
  try {
    checkBodyText(body, root);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.status, field: error.item().location, message: error.message };
  }
  return undefined;
}

describe('isAcceptedText', () => {
  it.each([
    ['', true],
    ['web-1', true],
    ['é 日本 \ufffd', true],
    ['😀', true], // a surrogate pair is one code point
    ['a😀b😀', true],
    ['a\u0000b', false],
    ['\u0000', false],
    ['\ud800', false],
    ['a\udc00', false],
    ['\udc00\ud800', false], // a pair the wrong way round is two lone halves
    ['😀\ud83d', false],
    ['\ud83d😀', false],
  ])('%j: %s', (text, accepted) => {
    expect(isAcceptedText(text)).toBe(accepted);
  });
});

describe('checkBodyText', () => {
  it('passes any JSON whose text is accepted, and non-text values', () => {
    expect(
      refusal({ name: 'fr', labels: { env: 'prod' }, ports: ['80'], n: 1, b: true, z: null }),
    ).toBeUndefined();
    expect(refusal(undefined)).toBeUndefined();
  });

  it('names the field of a value, through lists and objects', () => {
    expect(refusal({ description: 'a\u0000b' })).toEqual({
      status: 400,
      field: 'resource.description',
      message:
        "Invalid value for field 'resource.description': 'a\\u0000b'. Must be valid UTF-8 text without NUL (U+0000).",
    });
    expect(refusal({ metadataFilters: [{ filterLabels: [{ value: '\ud800' }] }] })?.field).toBe(
      'resource.metadataFilters[0].filterLabels[0].value',
    );
  });

  it('names the object that holds a key, and quotes the key', () => {
    const refused = refusal({ labels: { ok: 'x', 'k\u0000': 'v' } });
    expect(refused?.field).toBe('resource.labels');
    expect(refused?.message).toContain("'k\\u0000'");
  });

  it('names fields bare under an empty root, and the body itself as body', () => {
    expect(refusal({ labels: { env: '\udc00' } }, '')?.field).toBe('labels.env');
    expect(refusal(['\u0000'], '')?.field).toBe('[0]');
    expect(refusal('\u0000', '')?.field).toBe('body');
    expect(refusal('\u0000')?.field).toBe('resource');
  });

  it('reports the first refused text met', () => {
    expect(refusal({ a: 'ok', b: '\u0000', c: '\ud800' })?.field).toBe('resource.b');
    expect(refusal({ a: ['ok', { 'x\u0000': 1 }], b: '\u0000' })?.field).toBe('resource.a[1]');
  });

  it('walks 100,000 levels without the call stack, and cuts the field it names', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}"\\u0000"${']'.repeat(100_000)}`);
    const refused = refusal({ description: deep });
    expect(refused?.status).toBe(400);
    expect(refused?.field?.startsWith('resource.description[0][0]')).toBe(true);
    expect(refused?.field?.length).toBeLessThanOrEqual(201);
    expect(
      refusal({ description: JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) }),
    ).toBeUndefined();
  });

  it('writes control characters and unpaired surrogates as \\uXXXX, and nothing else', () => {
    expect(refusal({ d: 'say "hi" \\ \t\u0000 é😀 \udc00' })?.message).toContain(
      `'say "hi" \\ \\u0009\\u0000 é😀 \\udc00'`,
    );
  });

  it('quotes a long value by its start, escaped', () => {
    const refused = refusal({ description: `${'a'.repeat(10_000)}\u0000` });
    expect(refused?.message.length).toBeLessThan(200);
    expect(refused?.message).not.toMatch(/\u0000/);
  });
});

describe('unacceptedText', () => {
  it('carries the canonical status for Android Publisher', () => {
    expect(unacceptedText('revoke', '\u0000', 'publisher').body().error).toMatchObject({
      code: 400,
      status: 'INVALID_ARGUMENT',
      errors: [{ reason: 'invalid', location: 'revoke' }],
    });
    expect(unacceptedText('filter', '\u0000').body().error).not.toHaveProperty('status');
  });
});
