import { Collection, ListkitError, PageTokenCodec, resolvePageSize } from '@listkit/query';
import {
  type ForwardingRuleJson,
  forwardingRuleSchema,
  sampleForwardingRules,
} from '@listkit/service';
import { describe, expect, it } from 'vitest';
import { expectedNames } from '../support/expected-names.js';

const rules = sampleForwardingRules(2_000);

async function collection() {
  const c = new Collection<ForwardingRuleJson>(forwardingRuleSchema, {
    pageTokens: await PageTokenCodec.create(),
  });
  for (const rule of rules) c.put(rule);
  return c;
}

async function walk(
  c: Awaited<ReturnType<typeof collection>>,
  filter: string,
  orderBy: string,
  maxResults?: number,
) {
  const names: string[] = [];
  let pageToken: string | undefined;
  let pages = 0;
  do {
    const page = await c.list({
      filter,
      orderBy,
      pageToken,
      pageSize: resolvePageSize(maxResults, { default: 500, max: 500 }),
    });
    names.push(...page.items.map((r) => r.name));
    pageToken = page.nextPageToken;
    pages++;
  } while (pageToken);
  return { names, pages };
}

describe('listing forwarding rules the way Compute Engine does', () => {
  it('orders by name by default, in pages of at most 500', async () => {
    const c = await collection();
    const { names, pages } = await walk(c, '', '');
    expect(names).toEqual(rules.map((r) => r.name).sort());
    expect(pages).toBe(4);
  });

  it('orders by creationTimestamp desc, newest first', async () => {
    const c = await collection();
    const { names } = await walk(c, 'labels.env = prod', 'creationTimestamp desc', 37);
    expect(names).toEqual(expectedNames(rules, 'labels.env = prod', 'creationTimestamp desc'));
    expect(names.length).toBeGreaterThan(37);
  });

  it('accepts both filter styles on the same data', async () => {
    const c = await collection();
    const aip = await walk(c, 'name = web-* AND loadBalancingScheme = EXTERNAL', 'name');
    const regex = await walk(c, '(name eq "web-.*")(loadBalancingScheme eq EXTERNAL)', 'name');
    expect(aip.names.length).toBeGreaterThan(0);
    expect(regex.names).toEqual(aip.names);
  });

  it.each(['creationTimestamp', 'name desc', 'description'])(
    'refuses orderBy %j as Compute Engine does',
    async (orderBy) => {
      const c = await collection();
      const error = await c.list({ orderBy, pageSize: 10 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ListkitError);
      expect((error as ListkitError).code).toBe('unsupported_order_by');
      expect((error as ListkitError).message).toContain("'name', 'creationTimestamp desc'");
    },
  );

  it('applies maxResults rules: 0 is the default, above 500 is 500, negative is an error', () => {
    expect(resolvePageSize(0, { default: 500, max: 500 })).toBe(500);
    expect(resolvePageSize(501, { default: 500, max: 500 })).toBe(500);
    expect(() => resolvePageSize(-1, { default: 500, max: 500 })).toThrow(ListkitError);
  });
});
