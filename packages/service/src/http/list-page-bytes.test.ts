import { describe, expect, it } from 'vitest';
import { createEmulator } from '../emulator.js';
import { listPageBytes } from './list-page-bytes.js';

const entry = (value: unknown) => new TextEncoder().encode(`,${JSON.stringify(value)}`);
const parse = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes));

describe('listPageBytes', () => {
  it('writes the list answer: items only when some, nextPageToken only when more', () => {
    const items = [{ name: 'a', description: 'naïve ✓ 𝄞' }, { name: 'b' }];
    // Byte for byte what JSON.stringify writes, with one item and with several.
    for (const some of [items.slice(0, 1), items]) {
      const page = { items: some, nextPageToken: 't' };
      expect(new TextDecoder().decode(listPageBytes('k', 'i', 's', page, entry))).toBe(
        JSON.stringify({ kind: 'k', id: 'i', items: some, nextPageToken: 't', selfLink: 's' }),
      );
    }
    expect(
      parse(listPageBytes('k#list', 'p/r', 'https://s', { items, nextPageToken: 't' }, entry)),
    ).toEqual({
      kind: 'k#list',
      id: 'p/r',
      items,
      nextPageToken: 't',
      selfLink: 'https://s',
    });
    expect(parse(listPageBytes('k#list', 'p/r', 'https://s', { items: [] }, entry))).toEqual({
      kind: 'k#list',
      id: 'p/r',
      selfLink: 'https://s',
    });
  });

  it('is what the list route answers, byte for byte the JSON of the rules', async () => {
    const emulator = await createEmulator({
      seed: {
        forwardingRules: [
          {
            project: 'p',
            region: 'r',
            rule: { name: 'web', description: 'café ✓', IPProtocol: 'TCP' },
          },
        ],
      },
    });
    try {
      const response = await emulator.fetch(
        new Request('http://emulator/compute/v1/projects/p/regions/r/forwardingRules', {
          headers: { authorization: 'Bearer t' },
        }),
      );
      expect(response.headers.get('content-type')).toBe('application/json; charset=UTF-8');
      const json = await response.json();
      expect(json.items).toHaveLength(1);
      expect(json.items[0]).toMatchObject({ name: 'web', description: 'café ✓' });
      expect(json.nextPageToken).toBeUndefined();
    } finally {
      await emulator.close();
    }
  });
});
