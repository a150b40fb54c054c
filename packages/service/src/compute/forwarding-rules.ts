import type { Collection, ListPage, ListRequest, PageTokenCodec } from '@listkit/query';
import type { EmulatorClock } from '../clock.js';
import { errors } from '../http/api-error.js';
import { allocateAddress } from './address-pool.js';
import type { ComputeUrls } from './compute-urls.js';
import { fingerprintOf, labelFingerprintOf } from './fingerprint.js';
import type { ForwardingRuleJson } from './forwarding-rule.js';
import { aggregatedRuleCollection, regionRuleCollection } from './forwarding-rule-collection.js';
import { prepareForwardingRule } from './forwarding-rule-validation.js';
import { newNumericId } from './ids.js';

/** Options of {@link ForwardingRules}. */
export interface ForwardingRulesOptions {
  clock: EmulatorClock;
  urls: ComputeUrls;
  pageTokens: PageTokenCodec;
}

/**
 * The forwarding rules of every project and region, one indexed collection per region, so a
 * list never sees another project's rules.
 */
export class ForwardingRules {
  private readonly regions = new Map<string, Collection<ForwardingRuleJson>>();
  /** Every rule of a project, across regions, for the aggregated list (keyed by selfLink). */
  private readonly projects = new Map<string, Collection<ForwardingRuleJson>>();

  constructor(private readonly options: ForwardingRulesOptions) {}

  /** The rules of one project and region. */
  inRegion(project: string, region: string): ForwardingRuleJson[] {
    return this.regions.get(parentOf(project, region))?.values() ?? [];
  }

  /** The rule, or 404 in Compute Engine's words. */
  get(project: string, region: string, name: string): ForwardingRuleJson {
    const rule = this.find(project, region, name);
    if (!rule)
      throw errors.notFound(`The resource '${resourceName(project, region, name)}' was not found`);
    return rule;
  }

  find(project: string, region: string, name: string): ForwardingRuleJson | undefined {
    return this.regions.get(parentOf(project, region))?.get(name);
  }

  /**
   * Validates and stores a new rule, synchronously, so that concurrent inserts of one name are
   * decided in arrival order (one rule, the others 409). Returns the stored rule.
   */
  insert(project: string, region: string, body: unknown): ForwardingRuleJson {
    const collection = this.collection(project, region);
    const prepared = prepareForwardingRule(body, {
      project,
      region,
      urls: this.options.urls,
      existing: collection.values(),
    });
    if (collection.get(prepared.name)) {
      throw errors.alreadyExists(
        `The resource '${resourceName(project, region, prepared.name)}' already exists`,
      );
    }
    return this.store(project, region, prepared);
  }

  /**
   * Stores a rule as given, filling what the server sets (seed data, control plane). Fields
   * already present, such as `creationTimestamp`, are kept.
   */
  store(project: string, region: string, fields: ForwardingRuleJson): ForwardingRuleJson {
    const { urls, clock } = this.options;
    const collection = this.collection(project, region);
    const id = typeof fields.id === 'string' ? fields.id : newNumericId();
    const rule: ForwardingRuleJson = {
      kind: 'compute#forwardingRule',
      id,
      creationTimestamp: clock.iso(),
      ...fields,
      region: urls.region(project, region),
      selfLink: urls.forwardingRule(project, region, fields.name),
      selfLinkWithId: urls.forwardingRule(project, region, id),
    };
    if (rule.IPAddress === undefined) {
      const inUse = new Set(collection.values().map((r) => String(r.IPAddress)));
      // Internal and Private Service Connect rules (PSC rules have no scheme) take an address
      // of the VPC; external rules a public one.
      const scheme = rule.loadBalancingScheme;
      const internal = scheme === undefined || String(scheme).startsWith('INTERNAL');
      const kind = rule.ipVersion === 'IPV6' ? 'ipv6' : internal ? 'internal' : 'external';
      rule.IPAddress = allocateAddress(kind, inUse, region);
    }
    rule.labelFingerprint = labelFingerprintOf(rule.labels as Record<string, string> | undefined);
    return this.save(project, region, rule);
  }

  /**
   * Replaces a stored rule with a changed version (patch, setLabels), recomputing both
   * fingerprints: `fingerprint` changes with any change, `labelFingerprint` with the labels.
   */
  replace(project: string, region: string, rule: ForwardingRuleJson): ForwardingRuleJson {
    this.get(project, region, rule.name);
    return this.save(project, region, {
      ...rule,
      labelFingerprint: labelFingerprintOf(rule.labels as Record<string, string> | undefined),
    });
  }

  private save(project: string, region: string, rule: ForwardingRuleJson): ForwardingRuleJson {
    const { fingerprint: _old, ...content } = rule;
    rule.fingerprint = fingerprintOf(content);
    this.collection(project, region).put(rule);
    this.aggregate(project).put(rule);
    return rule;
  }

  /** Removes a rule; 404 when there is none. */
  delete(project: string, region: string, name: string): ForwardingRuleJson {
    const rule = this.get(project, region, name);
    this.collection(project, region).delete(name);
    this.aggregate(project).delete(String(rule.selfLink));
    return rule;
  }

  /** One page of a list call in a project and region. */
  list(
    project: string,
    region: string,
    request: Omit<ListRequest, 'parent'>,
  ): Promise<ListPage<ForwardingRuleJson>> {
    // The collection, not only its region, is bound into page tokens: the operations list of the
    // same region must refuse these.
    return this.collection(project, region).list({
      ...request,
      parent: `${parentOf(project, region)}/forwardingRules`,
    });
  }

  /** Every rule of every region, for the control plane. */
  all(): { project: string; region: string; rule: ForwardingRuleJson }[] {
    return [...this.regions].flatMap(([parent, collection]) => {
      const [, project, , region] = parent.split('/') as [string, string, string, string];
      return collection.values().map((rule) => ({ project, region, rule }));
    });
  }

  /**
   * One page of the aggregated list of a project (all regions), ordered by region and name by
   * default, with the same filter, orderBy and paging engine.
   */
  listAggregated(
    project: string,
    request: Omit<ListRequest, 'parent'>,
  ): Promise<ListPage<ForwardingRuleJson>> {
    return this.aggregate(project).list({
      ...request,
      parent: `projects/${project}/aggregated/forwardingRules`,
    });
  }

  clear(): void {
    this.regions.clear();
    this.projects.clear();
  }

  private aggregate(project: string): Collection<ForwardingRuleJson> {
    let collection = this.projects.get(project);
    if (!collection) {
      collection = aggregatedRuleCollection(this.options.pageTokens);
      this.projects.set(project, collection);
    }
    return collection;
  }

  private collection(project: string, region: string): Collection<ForwardingRuleJson> {
    const parent = parentOf(project, region);
    let collection = this.regions.get(parent);
    if (!collection) {
      collection = regionRuleCollection(this.options.pageTokens);
      this.regions.set(parent, collection);
    }
    return collection;
  }
}

const parentOf = (project: string, region: string) => `projects/${project}/regions/${region}`;

/** `projects/p/regions/r/forwardingRules/name`, as Compute Engine names resources in errors. */
export const resourceName = (project: string, region: string, name: string) =>
  `${parentOf(project, region)}/forwardingRules/${name}`;
