import type { ForwardingRuleJson } from '../forwarding-rule.js';
import type { AddressPoolKind } from './address-pool.js';
import { FreeAddresses } from './free-addresses.js';
import { canonicalAddress } from './ip-addresses.js';

const NONE: readonly ForwardingRuleJson[] = [];

/**
 * The rules of one scope (a region, or a project's global rules) by address (canonical form),
 * and the scope's free ephemeral addresses: all the clash rule and address allocation read, kept
 * up to date as rules are stored and removed, so neither reads every rule of the scope. The
 * in-memory stores keep one per scope; the SQL store answers the same questions with indexed
 * queries.
 *
 * @example
 * ```ts
 * const scope = new ScopeAddresses();
 * scope.add(rule);
 * scope.rulesAt('10.0.0.1'); // the rules at 10.0.0.1
 * scope.allocate('internal', 'us-central1'); // '10.128.0.2' when it is free
 * ```
 */
export class ScopeAddresses {
  private readonly byAddress = new Map<string, ForwardingRuleJson[]>();
  private readonly free = new FreeAddresses((address) => this.byAddress.has(address));

  /** An independent copy (the rules shared: none is ever changed in place). */
  copy(): ScopeAddresses {
    const copy = new ScopeAddresses();
    for (const [address, rules] of this.byAddress) copy.byAddress.set(address, [...rules]);
    copy.free.copyFrom(this.free);
    return copy;
  }

  /** The stored rules at an address (canonical form). */
  rulesAt(address: string): readonly ForwardingRuleJson[] {
    return this.byAddress.get(address) ?? NONE;
  }

  /** The lowest free address of a pool (403 `quotaExceeded` when exhausted). */
  allocate(kind: AddressPoolKind, region: string | undefined): string {
    return this.free.take(kind, region);
  }

  /** Records a stored rule (call {@link remove} first for the version it replaces). */
  add(rule: ForwardingRuleJson): void {
    const address = canonicalAddress(rule.IPAddress);
    if (address === undefined) return;
    const rules = this.byAddress.get(address);
    if (rules) rules.push(rule);
    else this.byAddress.set(address, [rule]);
  }

  /** Forgets the stored rule of that name (the version given: its address is looked up). */
  remove(rule: ForwardingRuleJson): void {
    const address = canonicalAddress(rule.IPAddress);
    if (address === undefined) return;
    const rules = this.byAddress.get(address);
    if (!rules) return;
    const at = rules.findIndex((r) => r.name === rule.name);
    if (at >= 0) rules.splice(at, 1);
    if (rules.length > 0) return;
    this.byAddress.delete(address);
    this.free.released(address);
  }
}
