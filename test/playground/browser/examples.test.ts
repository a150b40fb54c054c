// The playground's examples: each valid one selects some but not all sample rules, each broken
// one fails with the error it is named for, and together they use every operator of both styles.
import {
  compileFilter,
  type ExpressionNode,
  type FilterAst,
  ListkitError,
  parseFilter,
  parseOrderBy,
} from '@listkit/query';
import { sampleForwardingRules } from '@listkit/service';
import { describe, expect, it } from 'vitest';
import { EXAMPLES } from '../../../playground/src/examples.js';
import { playgroundSchema as forwardingRuleSchema } from '../../../playground/src/schema.js';

const rules = sampleForwardingRules(300);

describe('playground examples', () => {
  it('have unique ids', () => {
    expect(new Set(EXAMPLES.map((e) => e.id)).size).toBe(EXAMPLES.length);
  });

  for (const example of EXAMPLES.filter((e) => e.group !== 'Errors')) {
    it(`${example.id}: ${example.filter}`, () => {
      const filter = compileFilter(example.filter, forwardingRuleSchema);
      const count = rules.filter((r) => filter.matches(r)).length;
      expect(count).toBeGreaterThan(0);
      expect(count).toBeLessThan(rules.length);
      if (example.orderBy) parseOrderBy(example.orderBy, forwardingRuleSchema);
    });
  }

  for (const example of EXAMPLES.filter((e) => e.group === 'Errors')) {
    it(`${example.id} fails with ${example.shows}`, () => {
      let error: unknown;
      try {
        compileFilter(example.filter, forwardingRuleSchema);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ListkitError);
      expect((error as ListkitError).code).toBe(example.shows);
    });
  }

  it('cover every operator of both styles', () => {
    const seen = new Set<string>();
    const walk = (node: ExpressionNode): void => {
      switch (node.type) {
        case 'and':
        case 'or':
        case 'sequence':
          seen.add(node.type);
          node.operands.forEach(walk);
          return;
        case 'not':
          seen.add(node.syntax);
          walk(node.operand);
          return;
        case 'composite':
          seen.add('()');
          walk(node.expression);
          return;
        case 'restriction':
          if (!node.comparator) seen.add('bare value');
          else if (node.comparator === ':' && node.arg?.type === 'member') {
            const value = node.arg.segments.map((s) => s.value).join('.');
            seen.add(value === '*' ? ':*' : ':');
          } else seen.add(node.comparator);
      }
    };
    for (const example of EXAMPLES.filter((e) => e.group !== 'Errors')) {
      const ast: FilterAst = parseFilter(example.filter);
      if (ast.style === 'aip-160') walk(ast.expression);
      if (ast.style === 'regex') {
        for (const term of ast.terms) {
          seen.add(term.operator);
          if (term.parenthesized) seen.add('(term)');
        }
      }
    }
    expect([...seen].sort()).toEqual(
      [
        '=',
        '!=',
        '<',
        '<=',
        '>',
        '>=',
        ':',
        ':*',
        'and',
        'or',
        'sequence',
        'NOT',
        '-',
        '()',
        'bare value',
        'eq',
        'ne',
        '(term)',
      ].sort(),
    );
  });
});
