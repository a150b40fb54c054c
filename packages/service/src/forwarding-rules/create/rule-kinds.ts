import type { Scope } from './reference-paths.js';

export type Scheme =
  | 'EXTERNAL'
  | 'EXTERNAL_MANAGED'
  | 'INTERNAL'
  | 'INTERNAL_MANAGED'
  /** Global rules only (Traffic Director). */
  | 'INTERNAL_SELF_MANAGED';
/** The schemes a rule may have; `PSC` stands for a Private Service Connect rule (no scheme). */
export type Kind = Scheme | 'PSC';

/** The target collections a regional rule may point at, with the schemes that may use them. */
export const TARGET_TYPES: Record<string, { type: string; scope: Scope; kinds: readonly Kind[] }> =
  {
    targetPools: { type: 'TARGET_POOL', scope: 'regions', kinds: ['EXTERNAL'] },
    targetInstances: { type: 'TARGET_INSTANCE', scope: 'zones', kinds: ['EXTERNAL', 'INTERNAL'] },
    targetVpnGateways: { type: 'TARGET_VPN_GATEWAY', scope: 'regions', kinds: ['EXTERNAL'] },
    targetHttpProxies: {
      type: 'TARGET_HTTP_PROXY',
      scope: 'regions',
      kinds: ['EXTERNAL_MANAGED', 'INTERNAL_MANAGED'],
    },
    targetHttpsProxies: {
      type: 'TARGET_HTTPS_PROXY',
      scope: 'regions',
      kinds: ['EXTERNAL_MANAGED', 'INTERNAL_MANAGED'],
    },
    targetTcpProxies: {
      type: 'TARGET_TCP_PROXY',
      scope: 'regions',
      kinds: ['EXTERNAL_MANAGED', 'INTERNAL_MANAGED'],
    },
    serviceAttachments: { type: 'SERVICE_ATTACHMENT', scope: 'regions', kinds: ['PSC'] },
    targetSslProxies: { type: 'TARGET_SSL_PROXY', scope: 'global', kinds: [] },
    targetGrpcProxies: { type: 'TARGET_GRPC_PROXY', scope: 'global', kinds: [] },
  };

/** The protocols each kind of rule accepts (load balancing features, per product). */
export const PROTOCOLS: Record<Kind, readonly string[] | 'any'> = {
  EXTERNAL: 'any',
  INTERNAL: ['TCP', 'UDP', 'L3_DEFAULT'],
  EXTERNAL_MANAGED: ['TCP'],
  INTERNAL_MANAGED: ['TCP'],
  INTERNAL_SELF_MANAGED: ['TCP'],
  PSC: 'any',
};
export const PORT_PROTOCOLS = ['TCP', 'UDP', 'SCTP'];
