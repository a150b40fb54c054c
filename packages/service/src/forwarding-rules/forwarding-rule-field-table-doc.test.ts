import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fieldTableMarkdown } from './forwarding-rule-field-table-doc.js';

// docs/coverage.md's field table is derived from the field table in forwarding-rule-fields.ts.
// When this fails, replace the text between the markers with what `expected` shows (biome then
// aligns the columns; cells are compared trimmed).

const DOC = new URL('../../../../docs/coverage.md', import.meta.url);
const START = '<!-- field-table:start (generated from forwarding-rule-fields.ts) -->';
const END = '<!-- field-table:end -->';

describe('docs/coverage.md field table', () => {
  it('is the table forwarding-rule-fields.ts renders', () => {
    const doc = readFileSync(DOC, 'utf8');
    const start = doc.indexOf(START);
    const end = doc.indexOf(END);
    expect(start, 'the start marker').toBeGreaterThan(-1);
    expect(end, 'the end marker').toBeGreaterThan(start);
    const cells = (table: string) =>
      table
        .trim()
        .split('\n')
        .map((line) =>
          line
            .split(/(?<!\\)\|/)
            .map((cell) => cell.trim().replace(/^-+$/, '---'))
            .join(' | '),
        );
    const expected = fieldTableMarkdown();
    expect(cells(doc.slice(start + START.length, end)), expected).toEqual(cells(expected));
  });
});
