import { describe, expect, it } from 'vitest';
import { compactListEntry, indentedListEntry } from '../core/list-entry.js';
import { createEmulator } from '../emulator.js';
import { type ListEntries, listPageBytes } from './list-page-bytes.js';

const entry: ListEntries<unknown> = {
  compact: (value) => compactListEntry(JSON.stringify(value)),
  indented: indentedListEntry,
};
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const parse = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes));

describe('listPageBytes', () => {
  it('writes the list answer: items only when some, nextPageToken only when more', () => {
    const items = [{ name: 'a', description: 'naïve ✓ 𝄞' }, { name: 'b' }];
    // Byte for byte what JSON.stringify writes, with one item and with several.
    for (const some of [items.slice(0, 1), items]) {
      const page = { items: some, nextPageToken: 't' };
      expect(text(listPageBytes('k', 'i', 's', page, entry))).toBe(
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

  it('writes the indented answer byte for byte as JSON.stringify(answer, null, 2) and a newline', () => {
    const items = [
      { name: 'a', description: 'line\nbreak "q" \\ ✓ 𝄞 \u2028', labels: {}, ports: [] },
      { name: 'b', labels: { env: 'prod', tier: 'x' }, ports: ['80', '443'], nested: [{ a: [1] }] },
    ];
    for (const some of [[], items.slice(0, 1), items]) {
      for (const nextPageToken of [undefined, 'tok/en']) {
        const page = { items: some, ...(nextPageToken ? { nextPageToken } : {}) };
        const answer = {
          kind: 'k#list',
          id: 'p/"r"',
          ...(some.length > 0 ? { items: some } : {}),
          ...(nextPageToken ? { nextPageToken } : {}),
          selfLink: 'https://s',
        };
        const written = listPageBytes('k#list', 'p/"r"', 'https://s', page, entry, {
          indent: true,
        });
        expect(text(written)).toBe(`${JSON.stringify(answer, null, 2)}\n`);
        expect(text(listPageBytes('k#list', 'p/"r"', 'https://s', page, entry))).toBe(
          JSON.stringify(answer),
        );
      }
    }
  });

  it('writes a page compact when its indented entries are longer than the bound', () => {
    const page = { items: [{ name: 'a' }, { name: 'b' }] };
    const indentedLength = entry.indented(page.items[0]).length * 2;
    const at = (maxIndentedBytes: number) =>
      text(listPageBytes('k', 'i', 's', page, entry, { indent: true, maxIndentedBytes }));
    const answer = { kind: 'k', id: 'i', items: page.items, selfLink: 's' };
    expect(at(indentedLength)).toBe(`${JSON.stringify(answer, null, 2)}\n`);
    expect(at(indentedLength - 1)).toBe(JSON.stringify(answer));
  });

  it('writes into the buffer it is given', () => {
    const given: number[] = [];
    const page = { items: [{ name: 'a' }] };
    const body = listPageBytes('k', 'i', 's', page, entry, {
      indent: true,
      allocate: (length) => {
        given.push(length);
        return new Uint8Array(length);
      },
    });
    expect(given).toEqual([body.length]);
  });

  it('is what the list route answers, byte for byte the JSON of the rules, in either form', async () => {
    const rule = (name: string) => ({ name, description: `café ✓ "${name}"\n`, IPProtocol: 'TCP' });
    const emulator = await createEmulator({
      seed: {
        forwardingRules: ['web', 'api', 'db'].map((name) => ({
          project: 'p',
          region: 'r',
          rule: rule(name),
        })),
      },
    });
    const list = async (query: string) => {
      const response = await emulator.fetch(
        new Request(`http://emulator/compute/v1/projects/p/regions/r/forwardingRules?${query}`, {
          headers: { authorization: 'Bearer t' },
        }),
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=UTF-8');
      return response.text();
    };
    try {
      for (const query of ['maxResults=2', 'fields=items(name)']) {
        expect(await list(`${query}&prettyPrint=true`)).toMatch(/^{\n {2}"/);
        const indented = await list(query);
        const json = JSON.parse(indented);
        expect(indented).toBe(`${JSON.stringify(json, null, 2)}\n`);
        expect(json.items.map((r: { name: string }) => r.name)).toEqual(
          query.startsWith('fields') ? ['api', 'db', 'web'] : ['api', 'db'],
        );
        const compact = await list(`${query}&prettyPrint=false`);
        expect(compact).toBe(JSON.stringify(JSON.parse(compact)));
        expect({ ...JSON.parse(compact), nextPageToken: 'x' }).toEqual({
          ...json,
          nextPageToken: 'x',
        });
      }
      const first = JSON.parse(await list('maxResults=2'));
      expect(first.items[0]).toMatchObject(rule('api'));
      const rest = await list(`maxResults=2&pageToken=${first.nextPageToken}`);
      expect(rest).toBe(`${JSON.stringify(JSON.parse(rest), null, 2)}\n`);
      expect(JSON.parse(rest).items.map((r: { name: string }) => r.name)).toEqual(['web']);
    } finally {
      await emulator.close();
    }
  });
});
