// The playground's modules that need no page: completion order, reading data in every shape,
// schemas from pasted text, links (round trip and bounds), expectations, history, datasets.
import { compileFilter, ListkitError } from '@listkit/query';
import { describe, expect, it } from 'vitest';
import { lengthBoost } from '../../playground/src/completion.js';
import { checkKeys, parseData } from '../../playground/src/data.js';
import { MAX_COMPLETED_VALUES, valueCounts } from '../../playground/src/data-values.js';
import { DATASETS } from '../../playground/src/datasets/index.js';
import {
  exportExpectations,
  parseExpectations,
  runExpectation,
} from '../../playground/src/expectations.js';
import {
  HISTORY_KEY,
  loadHistory,
  MAX_HISTORY,
  recordHistory,
} from '../../playground/src/history.js';
import { dataDigest, keepData, keptData } from '../../playground/src/kept-data.js';
import { waterFill } from '../../playground/src/panels/results-view.js';
import {
  inferFrom,
  protoMessageName,
  schemaFromText,
  schemaTextKind,
  withOverrides,
} from '../../playground/src/schema-source.js';
import {
  decodeHash,
  defaults,
  encodeState,
  MAX_HASH_CHARS,
  MAX_LINK_DATA_CHARS,
} from '../../playground/src/url-state.js';

describe('completion order', () => {
  it("boosts shorter names within CodeMirror's tiers (never by 100 or more)", () => {
    expect(lengthBoost('labels')).toBeGreaterThan(lengthBoost('labelFingerprint'));
    expect(lengthBoost('label')).toBeGreaterThan(lengthBoost('labels'));
    expect(lengthBoost('a')).toBeLessThan(100);
    expect(lengthBoost('x'.repeat(500))).toBe(0);
  });
});

describe('reading data', () => {
  it('reads a JSON array, a list response (items or a plural) and NDJSON', () => {
    const rows = [{ name: 'a' }, { name: 'b' }];
    expect(parseData(JSON.stringify(rows))).toMatchObject({ ok: true, shape: 'JSON array' });
    expect(parseData(JSON.stringify({ items: rows, nextPageToken: 'x' }))).toMatchObject({
      ok: true,
      shape: 'list response',
      resources: rows,
    });
    expect(parseData(JSON.stringify({ books: rows }))).toMatchObject({ ok: true, plural: 'books' });
    expect(parseData('{"name":"a"}\n{"name":"b"}\n')).toMatchObject({
      ok: true,
      shape: 'NDJSON',
      resources: rows,
    });
  });
  it('says where broken text is broken, and which key is missing or repeated', () => {
    expect(parseData('{"name":"a"}\n{"name":}')).toMatchObject({
      ok: false,
      message: expect.stringContaining('line 2'),
    });
    expect(parseData('[1]')).toMatchObject({ ok: false, message: 'Record 0 is not an object.' });
    expect(checkKeys([{ name: 'a' }, { name: 'a' }], 'name')).toContain('must be unique');
    expect(checkKeys([{ id: 1 }], 'name')).toContain('has no "name"');
  });
});

describe('schemas from text', () => {
  it('tells JSON Schema, listkit schema JSON and .proto apart', () => {
    expect(schemaTextKind('{"type":"object","properties":{}}')).toBe('JSON Schema');
    expect(schemaTextKind('{"key":"name","fields":{}}')).toBe('listkit schema JSON');
    expect(schemaTextKind('syntax = "proto3"; message A {}')).toBe('.proto');
    expect(
      protoMessageName(
        'package lib.v1;\nmessage Author {\n}\nmessage Book {\n  option (google.api.resource) = {};\n}\n',
      ),
    ).toBe('lib.v1.Book');
  });
  it('uses a pasted JSON Schema and a .proto message', async () => {
    const jsonSchema = JSON.stringify({
      type: 'object',
      properties: {
        id: { type: 'string' },
        state: { enum: ['OPEN', 'DONE'] },
        due: { type: 'string', format: 'date-time' },
      },
    });
    const { schema } = await schemaFromText(jsonSchema, undefined, []);
    expect(schema.key).toBe('id');
    compileFilter('state = DONE AND due < 2025-01-01T00:00:00Z', schema);
    const proto =
      'syntax = "proto3";\npackage t;\nmessage Task {\n  string name = 1;\n  int32 size = 2;\n}\n';
    const fromProto = await schemaFromText(proto, undefined, []);
    expect(fromProto.kind).toBe('.proto');
    compileFilter('size > 2', fromProto.schema);
  });
  it('infers a schema, finding a key when there is no name or id, and applies overrides', () => {
    const rows = [
      { number: 1, title: 'a b' },
      { number: 2, title: 'c' },
    ];
    const schema = inferFrom(rows, undefined, []);
    expect(schema.key).toBe('number');
    const searched = withOverrides(schema, { searchable: ['title'], orderings: ['', 'title'] });
    expect(compileFilter('c', searched).matches(rows[1]!)).toBe(true);
    expect(searched.orderings).toEqual(['', 'title']);
    expect(() => withOverrides(schema, { searchable: ['number'] })).toThrow(/string field/);
  });
});

describe('links', () => {
  it('carry the dataset, data, schema, overrides, expectations and SQL dialect', async () => {
    const state = {
      ...defaults(),
      filter: 'state = DONE',
      dataset: 'books',
      data: '[{"id":"x"}]',
      inferred: true,
      schemaText: '{"type":"object","properties":{"id":{"type":"string"}}}',
      overrides: { key: 'id', orderings: ['', 'id desc'], searchable: ['id'] },
      expectations: [{ filter: 'id = x', keys: ['x'] }],
      sqlDialect: 'sqlite' as const,
    };
    const { hash } = await encodeState(state);
    expect(new URLSearchParams(hash.slice(1)).get('sql')).toBe('sqlite');
    const decoded = await decodeHash(hash);
    expect(decoded.warnings).toEqual([]);
    expect({ ...defaults(), ...decoded.state }).toEqual(state);
  });
  it('refuse what is too large or damaged, saying so', async () => {
    const long = await decodeHash(`#filter=${'a'.repeat(MAX_HASH_CHARS)}`);
    expect(long.state).toEqual({});
    expect(long.warnings[0]).toContain('over the');
    // 3 MB of one letter deflates to a few KB, so it fits a link: refused by its unpacked size.
    const bomb = await encodeState({ ...defaults(), data: 'x'.repeat(3_000_000) });
    expect(bomb.dataLeftOut).toBeUndefined();
    const { hash } = await encodeState({
      ...defaults(),
      expectations: [{ filter: 'a', keys: [] }],
    });
    const tests = new URLSearchParams(hash.slice(1)).get('tests')!;
    const data = new URLSearchParams(bomb.hash.slice(1)).get('data')!;
    const refused = await decodeHash(`#data=${data}&tests=${tests.slice(0, 5)}`);
    expect(refused.state.data).toBe('');
    expect(refused.state.missingData).toEqual({});
    expect(refused.warnings.join()).toMatch(/unpacks to over 2 MB/);
    expect(refused.warnings.join()).toMatch(/expectations in this link were not used/);
    const dialect = await decodeHash('#filter=&sql=oracle');
    expect(dialect.state.sqlDialect).toBeUndefined();
    expect(dialect.warnings).toEqual(['ignored sql=oracle: not one of postgres, sqlite, mysql']);
  });
});

describe('links that leave the data out', () => {
  const rules = DATASETS.find((d) => d.id === 'compute')!.generate(200);
  const context = (records: number) => ({
    records,
    schemaJson: () => '{"key":"name","fields":{"name":{"kind":"string"}}}',
    digest: dataDigest,
  });

  it('carry data that packs within the bound, and leave out data past it, saying so', async () => {
    // 40 rules pack to under MAX_LINK_DATA_CHARS; 200 pack to over it.
    const small = JSON.stringify(rules.slice(0, 40));
    const inLink = await encodeState({ ...defaults(), data: small }, context(40));
    const packed = new URLSearchParams(inLink.hash.slice(1)).get('data')!;
    expect(packed.length).toBeLessThanOrEqual(MAX_LINK_DATA_CHARS);
    expect(inLink.dataLeftOut).toBeUndefined();
    expect((await decodeHash(inLink.hash)).state.data).toBe(small);

    const large = JSON.stringify(rules);
    const state = { ...defaults(), filter: 'region = x', data: large, inferred: true };
    const leftOut = await encodeState(state, context(200));
    const params = new URLSearchParams(leftOut.hash.slice(1));
    expect(params.has('data')).toBe(false);
    expect(leftOut.dataLeftOut?.packedChars).toBeGreaterThan(MAX_LINK_DATA_CHARS);
    expect(params.get('dataLeftOut')).toBe('200');
    expect(params.get('dataRef')).toBe(await dataDigest(large));
    // The inferred schema cannot be inferred without the data: the link carries it.
    const decoded = await decodeHash(leftOut.hash);
    expect(decoded.warnings).toEqual([]);
    expect(decoded.state).toMatchObject({
      filter: 'region = x',
      data: '',
      missingData: { records: 200, ref: await dataDigest(large) },
      inferred: true,
      schemaText: context(0).schemaJson(),
    });
    // A page still waiting for the data writes the same promise into its own link.
    const forwarded = await encodeState({ ...defaults(), ...decoded.state });
    expect(new URLSearchParams(forwarded.hash.slice(1)).get('dataLeftOut')).toBe('200');
    expect(new URLSearchParams(forwarded.hash.slice(1)).has('data')).toBe(false);
  });

  it('read a bounded record count and digest', async () => {
    const odd = await decodeHash('#filter=&dataLeftOut=99999999&dataRef=%3Cscript%3E');
    expect(odd.state).toMatchObject({ data: '', missingData: {} });
    expect(odd.state.missingData?.records).toBeUndefined();
    expect(odd.state.missingData?.ref).toBeUndefined();
  });

  it('name data by a digest, and keep nothing where there is no IndexedDB', async () => {
    const ref = await dataDigest('[{"id":1}]');
    expect(ref).toMatch(/^[\w-]{22}$/);
    expect(await dataDigest('[{"id":1}]')).toBe(ref);
    expect(await dataDigest('[{"id":2}]')).not.toBe(ref);
    expect('indexedDB' in globalThis).toBe(false);
    expect(await keepData(ref!, '[]')).toBe(false);
    expect(await keptData(ref!)).toBeUndefined();
  });
});

describe('value completion from the data', () => {
  it('counts string values, the most frequent first, through messages and lists', () => {
    const rows = [
      { region: 'Europe', user: { login: 'a' }, tags: ['x', 'y', 'x'] },
      { region: 'Asia', user: { login: 'b' }, tags: ['y'] },
      { region: 'Europe', user: { login: 'a' }, tags: [] },
      { region: 7, labels: [{ name: 'bug' }, { name: 'ui' }] },
    ];
    expect(valueCounts(rows, 'region')).toEqual([
      { value: 'Europe', count: 2 },
      { value: 'Asia', count: 1 },
    ]);
    expect(valueCounts(rows, 'user.login')?.map((v) => v.value)).toEqual(['a', 'b']);
    // A record counts once per value.
    expect(valueCounts(rows, 'tags')).toEqual([
      { value: 'y', count: 2 },
      { value: 'x', count: 1 },
    ]);
    expect(valueCounts(rows, 'labels.name')?.map((v) => v.value)).toEqual(['bug', 'ui']);
  });

  it('offers none for a field with more distinct values than the bound', () => {
    const many = Array.from({ length: MAX_COMPLETED_VALUES + 1 }, (_, i) => ({ id: `r${i}` }));
    expect(valueCounts(many, 'id')).toBeUndefined();
    expect(valueCounts(many.slice(1), 'id')).toHaveLength(MAX_COMPLETED_VALUES);
  });
});

describe('results table widths', () => {
  it('give every column its width when all fit, else cut the widest first', () => {
    expect(waterFill([100, 200], 400)).toEqual([100, 200]);
    const cut = waterFill([100, 300, 500], 600);
    expect(cut).toEqual([100, 250, 250]);
    expect(cut.reduce((a, b) => a + b)).toBe(600);
    expect(waterFill([50, 500], 100, 40)).toEqual([50, 50]);
    // A narrow column is raised to the floor before the others are cut: the sum still fits.
    expect(waterFill([420, 33, 50], 491, 48)).toEqual([393, 48, 50]);
  });
});

describe('expectations', () => {
  const dataset = DATASETS.find((d) => d.id === 'books')!;
  const books = dataset.generate(50);
  it('pass, fail with what is missing and extra, and report invalid filters', () => {
    const published = books.filter((b) => b.state === 'PUBLISHED').map((b) => String(b.name));
    expect(
      runExpectation({ filter: 'state = PUBLISHED', keys: published }, dataset.schema, books),
    ).toEqual({ status: 'pass', matched: published.length });
    const wrong = runExpectation(
      { filter: 'state = PUBLISHED', keys: [...published.slice(1), 'nope'] },
      dataset.schema,
      books,
    );
    expect(wrong).toEqual({ status: 'fail', missing: ['nope'], unexpected: [published[0]] });
    expect(runExpectation({ filter: 'stat = X', keys: [] }, dataset.schema, books).status).toBe(
      'error',
    );
  });
  it('export and import as JSON, bounded', () => {
    const list = [{ filter: 'a = 1', keys: ['x'] }];
    expect(parseExpectations(JSON.parse(exportExpectations(list)))).toEqual(list);
    expect(() => parseExpectations([{ filter: 1 }])).toThrow(/filter/);
    expect(() => parseExpectations(Array.from({ length: 51 }, () => list[0]))).toThrow(/at most/);
  });
});

describe('history', () => {
  const storage = () => {
    const map = new Map<string, string>();
    return {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
      removeItem: (k: string) => void map.delete(k),
    } as unknown as Storage;
  };
  it('keeps the newest first, replaces a filter typed on, and is bounded', () => {
    const s = storage();
    const entry = (filter: string, at: number) => ({ filter, orderBy: '', dataset: 'books', at });
    recordHistory(entry('a = 1', 0), s);
    recordHistory(entry('a = 12', 1000), s);
    recordHistory(entry('b = 2', 10_000), s);
    expect(loadHistory(s).map((e) => e.filter)).toEqual(['b = 2', 'a = 12']);
    for (let i = 0; i < 50; i++) recordHistory(entry(`c = ${i}`, 100_000 * (i + 1)), s);
    expect(loadHistory(s)).toHaveLength(MAX_HISTORY);
    s.setItem(HISTORY_KEY, 'not json');
    expect(loadHistory(s)).toEqual([]);
  });
});

describe('datasets', () => {
  for (const dataset of DATASETS) {
    const resources = dataset.generate(dataset.defaultSample);
    it(`${dataset.id}: keys are unique and the first filter selects some`, () => {
      expect(checkKeys(resources, dataset.schema.key)).toBeUndefined();
      const first = compileFilter(dataset.firstFilter, dataset.schema);
      const n = resources.filter((r) => first.matches(r)).length;
      expect(n).toBeGreaterThan(0);
      expect(n).toBeLessThan(resources.length);
    });
    if (dataset.id === 'compute') continue; // test/playground/browser/examples.test.ts covers Compute's
    for (const example of dataset.examples) {
      it(`${example.id}: ${example.filter}`, () => {
        let compiled: ReturnType<typeof compileFilter>;
        try {
          compiled = compileFilter(example.filter, dataset.schema);
        } catch (error) {
          throw error instanceof ListkitError ? new Error(error.format()) : error;
        }
        const n = resources.filter((r) => compiled.matches(r)).length;
        expect(n).toBeGreaterThan(0);
        expect(n).toBeLessThan(resources.length);
      });
    }
  }
});
