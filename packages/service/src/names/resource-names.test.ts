import { describe, expect, it } from 'vitest';
import {
  aggregatedTokenParent,
  regionalCollectionName,
  regionalName,
  regionParent,
  regionRefOf,
  tokenParent,
} from './resource-names.js';

describe('resource names', () => {
  const east = { project: 'p', region: 'us-east1' };

  it('names a region, its collections and their resources as Compute Engine does', () => {
    expect(regionParent(east)).toBe('projects/p/regions/us-east1');
    expect(regionalCollectionName(east, 'operations')).toBe(
      'projects/p/regions/us-east1/operations',
    );
    expect(regionalName(east, 'forwardingRules', 'web-1')).toBe(
      'projects/p/regions/us-east1/forwardingRules/web-1',
    );
    expect(regionalName(east, 'addresses', 'a')).toBe('projects/p/regions/us-east1/addresses/a');
  });

  it('binds page tokens to the collection, and the aggregated list to the project', () => {
    expect(tokenParent(east, 'forwardingRules')).not.toBe(tokenParent(east, 'operations'));
    expect(aggregatedTokenParent('p')).toBe('projects/p/aggregated/forwardingRules');
  });

  it('reads a region back from its parent', () => {
    expect(regionRefOf(regionParent(east))).toEqual(east);
  });
});
