import { PageTokenCodec } from '@listkit/query';
import { describe, expect, it } from 'vitest';
import type { OperationJson } from '../operations/operations.js';
import { openMemoryStore } from '../store/memory-store.js';
import type { ForwardingRuleJson } from './forwarding-rule.js';
import {
  aggregatedRuleCollection,
  FORWARDING_RULE_INDEXES,
  parseStoredRule,
  ruleListEntryBytes,
  scopeRuleCollection,
} from './forwarding-rule-collection.js';

const rule = (i: number): ForwardingRuleJson => ({
  name: `rule-${String(i).padStart(4, '0')}`,
  creationTimestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(),
  IPProtocol: i % 10 === 0 ? 'UDP' : 'TCP',
  IPAddress: `10.0.${i >> 8}.${i & 255}`,
  loadBalancingScheme: i % 2 ? 'INTERNAL' : 'EXTERNAL',
  labels: { env: i % 100 === 0 ? 'prod' : 'dev' },
  selfLink: `https://x/projects/p/regions/r/forwardingRules/rule-${String(i).padStart(4, '0')}`,
});

describe('the forwarding-rule collections', () => {
  it('write a rule read from a store with the JSON text it was read from', () => {
    // PostgreSQL's jsonb text has spaces JSON.stringify never writes: proof it is not re-serialised.
    const text = '{"name": "web-1", "labels": {"env": "prod"}}';
    const rule = parseStoredRule(text);
    expect(rule).toEqual({ name: 'web-1', labels: { env: 'prod' } });
    expect(Buffer.from(ruleListEntryBytes(rule)).toString()).toBe(`,${text}`);
  });

  it('seek a declared index for an equality on an indexed field instead of scanning', async () => {
    const pageTokens = await PageTokenCodec.create();
    for (const collection of [
      scopeRuleCollection(pageTokens),
      aggregatedRuleCollection(pageTokens),
    ]) {
      for (let i = 0; i < 2000; i++) collection.put(rule(i));
      for (const filter of ['labels.env = prod', 'IPAddress = "10.0.1.7"', 'IPProtocol = UDP']) {
        const plan = collection.plan({ filter, pageSize: 10 });
        expect(plan.access, filter).toBe('index');
        expect(FORWARDING_RULE_INDEXES).toContain(plan.index);
      }
      // The seek answers what the scan would: every match, in order, across pages.
      const names: string[] = [];
      let pageToken: string | undefined;
      do {
        const page = await collection.list({ filter: 'labels.env = prod', pageSize: 7, pageToken });
        names.push(...page.items.map((r) => r.name));
        pageToken = page.nextPageToken;
      } while (pageToken);
      expect(names).toEqual(
        Array.from({ length: 20 }, (_, k) => `rule-${String(k * 100).padStart(4, '0')}`),
      );
    }
  });

  it('are what the memory store lists from', async () => {
    const store = openMemoryStore({ pageTokens: await PageTokenCodec.create() });
    const parent = { project: 'p', region: 'r' };
    for (let i = 0; i < 300; i++) {
      await store.rules.insert(parent, rule(i), {
        operation: (r) => ({ operation: { name: `op-${r.name}` } as OperationJson, meta: {} }),
      });
    }
    const page = await store.rules.list(parent, { filter: 'labels.env = prod', pageSize: 500 });
    expect(page.items.map((r) => r.name)).toEqual(['rule-0000', 'rule-0100', 'rule-0200']);
  });

  it('serialise a stored rule once, as a comma and its JSON in UTF-8', () => {
    const stored: ForwardingRuleJson = { name: 'café', description: 'naïve ✓ 𝄞' };
    const bytes = ruleListEntryBytes(stored);
    expect(new TextDecoder().decode(bytes)).toBe(`,${JSON.stringify(stored)}`);
    expect(ruleListEntryBytes(stored)).toBe(bytes);
  });
});
