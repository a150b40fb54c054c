// Stage 2: what the rule is (its kind) and where its traffic goes (target or backendService).
import type { BodyReader } from './body-reader.js';
import type { NameAndEnums } from './check-name-region-enums.js';
import { invalid } from './errors.js';
import { GOOGLE_APIS_BUNDLES, wellFormedReference } from './patterns-and-limits.js';
import { type Reference, readReference, referenceRegion } from './reference-paths.js';
import { type Kind, PROTOCOLS, type Scheme, TARGET_TYPES } from './rule-kinds.js';

/** What stage 2 learns. */
export interface Destination {
  targetRef: Reference | undefined;
  kind: Kind;
  backendText: string | undefined;
}

/**
 * Stage 2 of create: {@link checkTargetAndBackend} for a regional rule; a global rule has its
 * own (`global-forwarding-rules/`), the other stages being shared.
 */
export type DestinationStage = (r: BodyReader, known: NameAndEnums) => Destination;

/**
 * Checks target and backendService (type, scope, region, against the scheme), then the network
 * tier and IPProtocol the kind of rule allows.
 */
export function checkTargetAndBackend(r: BodyReader, known: NameAndEnums): Destination {
  const { str, ctx } = r;
  const { targetText, googleApis, schemeText, tier, protocol } = known;
  // target and backendService: what the rule is, and where its traffic goes
  const targetRef = readTarget(targetText, googleApis, ctx.project);
  const targetType =
    targetRef && Object.hasOwn(TARGET_TYPES, targetRef.collection)
      ? TARGET_TYPES[targetRef.collection]
      : undefined;
  if (targetRef) {
    if (!targetType || targetType.scope !== targetRef.scope) {
      const type = targetType?.type ?? targetRef.collection;
      throw invalid(
        'target',
        targetText,
        targetRef.scope === 'global'
          ? `Invalid target type ${type} for forwarding rule in scope REGION`
          : `Invalid target type ${type} for a regional forwarding rule.`,
      );
    }
    if (referenceRegion(targetRef) !== ctx.region) {
      throw invalid(
        'target',
        targetText,
        `The target must be in the region of the forwarding rule, ${ctx.region}.`,
      );
    }
  }
  const psc = googleApis || targetRef?.collection === 'serviceAttachments';
  if (psc && schemeText !== undefined) {
    throw invalid(
      'loadBalancingScheme',
      schemeText,
      'A Private Service Connect forwarding rule has no load balancing scheme; leave it empty.',
    );
  }
  const kind: Kind = psc ? 'PSC' : ((schemeText as Scheme | undefined) ?? 'EXTERNAL');
  if (targetType && !targetType.kinds.includes(kind)) {
    throw invalid(
      'target',
      targetText,
      `A target of type ${targetType.type} cannot be used with load balancing scheme ${kind}.`,
    );
  }
  const backendText = str('backendService');
  if (backendText !== undefined) {
    if (targetText !== undefined) {
      throw invalid(
        'backendService',
        backendText,
        'target and backendService are mutually exclusive: set one of them.',
      );
    }
    const ref = readReference(backendText, ctx.project);
    if (ref?.collection !== 'backendServices') {
      throw invalid('backendService', backendText, 'The URL is malformed.');
    }
    if (ref.scope !== 'regions' || ref.location !== ctx.region) {
      throw invalid(
        'backendService',
        backendText,
        `A regional forwarding rule needs a backend service in its region, ${ctx.region}.`,
      );
    }
    if (kind !== 'EXTERNAL' && kind !== 'INTERNAL') {
      throw invalid(
        'backendService',
        backendText,
        `A forwarding rule with load balancing scheme ${kind} cannot have a backendService; set a target instead.`,
      );
    }
  }

  checkTierAndProtocol(kind, tier, protocol, PROTOCOLS[kind]);
  return { targetRef, kind, backendText };
}

/**
 * The end of stage 2, for every scope: the STANDARD tier only on external rules, and the
 * protocols the kind of rule (`protocols`) accepts.
 */
export function checkTierAndProtocol(
  kind: Kind,
  tier: string | undefined,
  protocol: string,
  protocols: readonly string[] | 'any',
): void {
  if (tier === 'STANDARD' && kind !== 'EXTERNAL' && kind !== 'EXTERNAL_MANAGED') {
    throw invalid(
      'networkTier',
      tier,
      `The STANDARD tier is only available to external forwarding rules, not to ${kind === 'PSC' ? 'Private Service Connect' : kind} ones.`,
    );
  }
  if (protocols !== 'any' && !protocols.includes(protocol)) {
    throw invalid(
      'IPProtocol',
      protocol,
      `A forwarding rule with load balancing scheme ${kind} supports ${protocols.join(', ')}.`,
    );
  }
}

/**
 * The rule's `target` as a reference, in either scope: undefined when there is none or it names
 * a Google APIs bundle; a malformed URL is refused here, in one wording for both scopes. A
 * reference is malformed, as Compute answers it, when it has not the shape of one or when one
 * of its segments breaks the naming rule (`T_T!`, `a b`: `wellFormedReference`).
 */
export function readTarget(
  targetText: string | undefined,
  googleApis: boolean,
  project: string,
): Reference | undefined {
  if (targetText === undefined || googleApis) return undefined;
  const targetRef = readReference(targetText, project);
  if (!targetRef || !wellFormedReference(targetRef)) {
    throw invalid(
      'target',
      targetText,
      `The URL is malformed. A target is a resource URL or one of the Google APIs bundles ${GOOGLE_APIS_BUNDLES.join(', ')}.`,
    );
  }
  return targetRef;
}
