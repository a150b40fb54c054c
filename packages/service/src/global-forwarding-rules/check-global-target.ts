// Stage 2 of create for a global forwarding rule: what the rule is (its kind) and where its
// traffic goes. A global rule points at a global load-balancing resource (spec §2, `target`): a
// global target proxy, a Google APIs bundle (Private Service Connect), or, for a global external
// passthrough Network Load Balancer, a global backend service. Every other stage of create is the
// regional rules' (forwarding-rules/create/), which read the scope from the context.
import type { BodyReader } from '../forwarding-rules/create/body-reader.js';
import type { NameAndEnums } from '../forwarding-rules/create/check-name-region-enums.js';
import {
  checkTierAndProtocol,
  type Destination,
  readTarget,
} from '../forwarding-rules/create/check-target-and-backend.js';
import { invalid, required } from '../forwarding-rules/create/errors.js';
import { readReference } from '../forwarding-rules/create/reference-paths.js';
import { type Kind, TARGET_TYPES } from '../forwarding-rules/create/rule-kinds.js';

/**
 * The global target collections, with the load balancing schemes that may use them
 * (load balancers' forwarding rule concepts: global external and classic Application Load
 * Balancers, global proxy Network Load Balancers, cross-region internal ones, Traffic Director).
 */
export const GLOBAL_TARGET_TYPES: Readonly<
  Record<string, { type: string; kinds: readonly Kind[] }>
> = {
  targetHttpProxies: {
    type: 'TARGET_HTTP_PROXY',
    kinds: ['EXTERNAL', 'EXTERNAL_MANAGED', 'INTERNAL_MANAGED', 'INTERNAL_SELF_MANAGED'],
  },
  targetHttpsProxies: {
    type: 'TARGET_HTTPS_PROXY',
    kinds: ['EXTERNAL', 'EXTERNAL_MANAGED', 'INTERNAL_MANAGED', 'INTERNAL_SELF_MANAGED'],
  },
  targetTcpProxies: {
    type: 'TARGET_TCP_PROXY',
    kinds: ['EXTERNAL', 'EXTERNAL_MANAGED', 'INTERNAL_MANAGED', 'INTERNAL_SELF_MANAGED'],
  },
  targetSslProxies: { type: 'TARGET_SSL_PROXY', kinds: ['EXTERNAL', 'EXTERNAL_MANAGED'] },
  targetGrpcProxies: { type: 'TARGET_GRPC_PROXY', kinds: ['INTERNAL_SELF_MANAGED'] },
};

/** The longest name of a global external passthrough rule (the server appends `-ag0`, `-ag1`). */
export const GLOBAL_PASSTHROUGH_NAME_MAX = 43;

/** Protocols of a global external passthrough rule; every global target proxy takes TCP only. */
const PASSTHROUGH_PROTOCOLS = ['TCP', 'UDP', 'L3_DEFAULT'];

/**
 * Checks target and backendService of a global rule, then its tier and protocol: a target must be
 * a global target proxy or a Google APIs bundle (a regional or zonal one is `Invalid target type
 * … for forwarding rule in scope GLOBAL`, the real API's words for the other way round); a
 * backendService is a global one, on an EXTERNAL rule (a global external passthrough Network Load
 * Balancer), whose name is 1-43 characters. One of the two is required.
 *
 * @example
 * ```ts
 * prepareForwardingRule(body, { project, urls }, checkGlobalTargetAndBackend);
 * ```
 */
export function checkGlobalTargetAndBackend(r: BodyReader, known: NameAndEnums): Destination {
  const { str, ctx } = r;
  const { targetText, googleApis, schemeText, tier, protocol, name } = known;
  const backendText = str('backendService');
  if (targetText === undefined && backendText === undefined) throw required('target');
  if (targetText !== undefined && backendText !== undefined) {
    throw invalid(
      'backendService',
      backendText,
      'target and backendService are mutually exclusive: set one of them.',
    );
  }
  if (googleApis && schemeText !== undefined) {
    throw invalid(
      'loadBalancingScheme',
      schemeText,
      'A Private Service Connect forwarding rule has no load balancing scheme; leave it empty.',
    );
  }
  const kind: Kind = googleApis ? 'PSC' : ((schemeText as Kind | undefined) ?? 'EXTERNAL');

  const targetRef = readTarget(targetText, googleApis, ctx.project);
  if (targetRef) {
    const global =
      targetRef.scope === 'global' && Object.hasOwn(GLOBAL_TARGET_TYPES, targetRef.collection)
        ? GLOBAL_TARGET_TYPES[targetRef.collection]
        : undefined;
    if (!global) {
      const known = Object.hasOwn(TARGET_TYPES, targetRef.collection)
        ? TARGET_TYPES[targetRef.collection]?.type
        : undefined;
      throw invalid(
        'target',
        targetText,
        `Invalid target type ${known ?? targetRef.collection} for forwarding rule in scope GLOBAL`,
      );
    }
    if (!global.kinds.includes(kind)) {
      throw invalid(
        'target',
        targetText,
        `A target of type ${global.type} cannot be used with load balancing scheme ${kind}.`,
      );
    }
  }

  if (backendText !== undefined) {
    const ref = readReference(backendText, ctx.project);
    if (ref?.collection !== 'backendServices') {
      throw invalid('backendService', backendText, 'The URL is malformed.');
    }
    if (ref.scope !== 'global') {
      throw invalid(
        'backendService',
        backendText,
        'A global forwarding rule needs a global backend service.',
      );
    }
    if (kind !== 'EXTERNAL') {
      throw invalid(
        'backendService',
        backendText,
        `A global forwarding rule with load balancing scheme ${kind} cannot have a backendService; set a target instead.`,
      );
    }
    if (name.length > GLOBAL_PASSTHROUGH_NAME_MAX) {
      throw invalid(
        'name',
        name,
        `The name of a global external passthrough Network Load Balancer forwarding rule is 1-${GLOBAL_PASSTHROUGH_NAME_MAX} characters long, not ${name.length}.`,
      );
    }
  }

  const protocols = kind === 'PSC' ? 'any' : backendText ? PASSTHROUGH_PROTOCOLS : ['TCP'];
  checkTierAndProtocol(kind, tier, protocol, protocols);
  return { targetRef, kind, backendText };
}
