import type { ListPage, ListRequest } from '@listkit/query';
import type { EmulatorClock } from '../core/clock.js';
import { resourceNotFound } from '../core/compute-refusals.js';
import { newNumericId } from '../core/ids.js';
import type { Principal } from '../core/principal.js';
import type { ComputeUrls } from '../names/compute-urls.js';
import { type ScopeRef, scopedName } from '../names/resource-names.js';
import {
  type OperationJson,
  type OperationStart,
  type Operations,
  operationAnswer,
} from '../operations/operations.js';
import { fingerprintOf, labelFingerprintOf } from './fingerprint.js';
import type { ForwardingRuleJson } from './forwarding-rule.js';
import type { ForwardingRuleStore, WriteResult } from './forwarding-rule-store.js';
import { checkPatchedRule } from './forwarding-rule-update.js';
import { type DestinationStage, prepareForwardingRule } from './forwarding-rule-validation.js';
import { allocationFor, changeCheckFor, scopeCheckFor } from './scope-check.js';

/** Options of {@link ForwardingRules}. */
export interface ForwardingRulesOptions {
  store: ForwardingRuleStore;
  operations: Operations;
  clock: EmulatorClock;
  urls: ComputeUrls;
  /**
   * Stage 2 of create (target and backend service, by the scope's rules): the regional one
   * unless given. Global rules give theirs; every other rule is shared.
   */
  destination?: DestinationStage;
  /** What the scope adds to a new rule and its operations' types (each scope's PSC endpoints). */
  scopeWrites?: ScopeWrites;
}

/**
 * A scope's own part in its writes: fields the server adds to a new rule (after the create
 * rules, before fingerprints), and the operation type a write of a rule records.
 *
 * @example
 * ```ts
 * const writes: ScopeWrites = { created: (rule) => rule, operationType: (_rule, type) => type };
 * ```
 */
export interface ScopeWrites {
  created(rule: ForwardingRuleJson): ForwardingRuleJson;
  operationType(rule: ForwardingRuleJson, operationType: string): string;
}

/** How a change of a rule is recorded: who, which operation type, and its requestId. */
export interface RuleChange {
  principal: Principal;
  operationType: string;
  requestId?: string;
  /** Overrides the emulator's operation policy (setLabels is DONE in its first answer). */
  policy?: OperationStart['policy'];
}

/**
 * The forwarding rules of every project and region, kept in the emulator's store: what Compute
 * Engine's methods do to them, in domain terms. Every write is one store transaction that also
 * records its operation; the region's writes are serialised while the clash rule and address
 * allocation read the region, so two processes on one database cannot both take an address.
 * Errors are domain errors ({@link Refusal}); `http/` answers them.
 */
export class ForwardingRules {
  constructor(private readonly options: ForwardingRulesOptions) {}

  /** The rule, or `not_found` in Compute Engine's words. */
  async get(where: ScopeRef, name: string): Promise<ForwardingRuleJson> {
    const rule = await this.options.store.get(where, name);
    if (!rule) throw ruleNotFound(where, name);
    return rule;
  }

  /**
   * Validates and stores a new rule with its `insert` operation, and answers the operation. A
   * retry with a requestId seen before answers the original operation and creates nothing.
   */
  async insert(where: ScopeRef, body: unknown, change: RuleChange): Promise<OperationJson> {
    const { urls } = this.options;
    // The clash rule and allocation read the region: they run inside the serialised write, on
    // the rules at the new rule's address only.
    const prepared = prepareForwardingRule(body, { ...where, urls }, this.options.destination);
    const { scopeWrites } = this.options;
    const rule = this.withServerFields(where, scopeWrites?.created(prepared) ?? prepared);
    await this.retentionBefore(change.requestId);
    const result = await this.options.store.insert(where, rule, {
      ...this.recorded(where, change),
      check: scopeCheckFor(rule, { ...where, urls }, withFingerprints),
    });
    return this.answered(result);
  }

  /**
   * Stores a rule as given without an operation (seed data, the control plane), filling what the
   * server sets; fields already present, such as `creationTimestamp`, are kept. A rule of the same
   * name is replaced.
   */
  async seed(where: ScopeRef, fields: ForwardingRuleJson): Promise<void> {
    const rule = this.withServerFields(where, fields);
    // Seeds are not clash-checked (they load a known state); one without an address gets one.
    await this.options.store.put(where, rule, allocationFor(rule, withFingerprints));
  }

  /**
   * Changes a stored rule (patch, setLabels, setTarget): `change` gets the rule as stored and
   * returns the new one; `check`, when given, runs inside the serialised write with the region's
   * other rules at the new version's address (the create rules, the clash rule). The write is
   * conditional on the fingerprint read, so of two concurrent changes one wins and the other is
   * `condition_failed`.
   */
  async update(
    where: ScopeRef,
    name: string,
    apply: (current: ForwardingRuleJson) => ForwardingRuleJson,
    change: RuleChange & {
      check?: (rule: ForwardingRuleJson, sameAddress: readonly ForwardingRuleJson[]) => void;
    },
  ): Promise<OperationJson> {
    const earlier = await this.replayOf(where, change.requestId);
    if (earlier) return earlier; // a retry: the original operation, nothing changed
    const current = await this.get(where, name);
    const rule = withFingerprints(apply(current));
    const { check } = change;
    const result = await this.options.store.update(where, rule, {
      ...this.recorded(where, change),
      expectedFingerprint: String(current.fingerprint),
      ...(check ? { check: changeCheckFor(check) } : {}),
    });
    return this.answered(result);
  }

  /**
   * Checks a changed rule (patch, setTarget) against the create rules of its scope, beside the
   * scope's other rules at its address (`sameAddress`); throws to refuse the change.
   */
  checkChange(
    where: ScopeRef,
    rule: ForwardingRuleJson,
    sameAddress: readonly ForwardingRuleJson[],
  ): void {
    checkPatchedRule(
      rule,
      { ...where, urls: this.options.urls, sameAddress },
      this.options.destination,
    );
  }

  /**
   * Removes a rule and answers its `delete` operation; a retry with a requestId seen before
   * answers the original operation.
   */
  async delete(
    where: ScopeRef,
    name: string,
    principal: Principal,
    requestId?: string,
  ): Promise<OperationJson> {
    await this.retentionBefore(requestId);
    const result = await this.options.store.delete(
      where,
      name,
      this.recorded(where, { principal, operationType: 'delete', requestId }),
    );
    return this.answered(result);
  }

  /** One page of a list call in a project and region. */
  list(
    where: ScopeRef,
    request: Omit<ListRequest, 'parent'>,
  ): Promise<ListPage<ForwardingRuleJson>> {
    return this.options.store.list(where, request);
  }

  /** One page of the aggregated list of a project (all regions), by region and name by default. */
  listAggregated(
    project: string,
    request: Omit<ListRequest, 'parent'>,
  ): Promise<ListPage<ForwardingRuleJson>> {
    return this.options.store.listAggregated(project, request);
  }

  /** Every rule of every scope (no `region`: a global rule), for the control plane. */
  all(): Promise<{ project: string; region?: string; rule: ForwardingRuleJson }[]> {
    return this.options.store.all();
  }

  /**
   * The operation an earlier write with this requestId started in the region, as it stands now;
   * undefined without a requestId or a match. Checked before a body is validated, so a retry
   * answers the original; the store checks again inside the write, for concurrent retries.
   */
  async replayOf(
    where: ScopeRef,
    requestId: string | undefined,
  ): Promise<OperationJson | undefined> {
    return requestId ? this.options.operations.byRequestId(where, requestId) : undefined;
  }

  /** The operation recorded with a write, built from the rule written. */
  private recorded(where: ScopeRef, change: RuleChange) {
    const { requestId } = change;
    return {
      ...(requestId ? { requestId } : {}),
      operation: (rule: ForwardingRuleJson) =>
        this.options.operations.newOperation({
          ...where,
          operationType:
            this.options.scopeWrites?.operationType(rule, change.operationType) ??
            change.operationType,
          targetLink: String(rule.selfLink),
          targetId: String(rule.id),
          user: change.principal.identity,
          ...(change.policy ? { policy: change.policy } : {}),
          ...(requestId ? { requestId } : {}),
        }),
    };
  }

  /**
   * Before a write with a requestId: operations past retention are dropped, so the store's check
   * inside the write does not answer a retry with one a client can no longer read.
   */
  private async retentionBefore(requestId: string | undefined): Promise<void> {
    if (requestId) await this.options.operations.sweep();
  }

  /**
   * The operation's first answer, once the write committed; old operations are swept every so
   * many writes (`Operations.wrote`).
   */
  private async answered(result: WriteResult): Promise<OperationJson> {
    const { operations } = this.options;
    if (result.replayed) {
      // A retry: the original operation as it stands now (time may have completed it).
      const now = await operations.byRequestId(result.operation, result.operation.requestId!);
      if (now) return now;
    }
    await operations.wrote();
    return operationAnswer(result.operation.operation);
  }

  /**
   * The rule with what the server sets: kind, id, creation time, region and links. A global rule
   * has no `region`, and no `selfLinkWithId` either: the real API's answers carry none (recorded
   * by Config Connector; decision 0046,
   * docs/decisions/0046-global-forwarding-rules-the-regional-rules-in-the-projects.md).
   */
  private withServerFields(where: ScopeRef, fields: ForwardingRuleJson): ForwardingRuleJson {
    const { urls, clock } = this.options;
    const id = typeof fields.id === 'string' ? fields.id : newNumericId();
    const { region: _region, selfLinkWithId: _withId, ...given } = fields;
    const { project, region } = where;
    return withFingerprints({
      kind: 'compute#forwardingRule',
      id,
      creationTimestamp: clock.iso(),
      ...given,
      ...(region === undefined
        ? {}
        : {
            region: urls.region(project, region),
            selfLinkWithId: urls.forwardingRule(project, region, id),
          }),
      selfLink: urls.forwardingRule(project, region, fields.name),
    });
  }
}

/**
 * Sets both fingerprints of a rule (in place, and returns it): `fingerprint` changes with any
 * change, `labelFingerprint` with the labels.
 */
function withFingerprints(rule: ForwardingRuleJson): ForwardingRuleJson {
  rule.labelFingerprint = labelFingerprintOf(rule.labels as Record<string, string> | undefined);
  const { fingerprint: _old, ...content } = rule;
  rule.fingerprint = fingerprintOf(content);
  return rule;
}

/** The refusal of an unknown forwarding rule, named as Compute Engine names it. */
export const ruleNotFound = (where: ScopeRef, name: string) =>
  resourceNotFound(scopedName(where, 'forwardingRules', name));
