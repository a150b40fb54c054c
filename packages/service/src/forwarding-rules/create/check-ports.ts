// Stage 4: portRange, ports and allPorts, against the protocol and the kind of rule.
import type { BodyReader } from './body-reader.js';
import type { NameAndEnums } from './check-name-region-enums.js';
import type { Destination } from './check-target-and-backend.js';
import { invalid } from './errors.js';
import { FORWARDING_RULE_LIMITS } from './patterns-and-limits.js';
import { normalizePortRange } from './port-spans.js';
import { PORT_PROTOCOLS } from './rule-kinds.js';

/** What stage 4 learns. */
export interface Ports {
  portRange: string | undefined;
  ports: string[] | undefined;
  allPorts: boolean;
}

/** Checks the port fields: syntax, exclusivity, protocol, and which products take which. */
export function checkPorts(r: BodyReader, known: NameAndEnums, dest: Destination): Ports {
  const { str, list, flag } = r;
  const { protocol } = known;
  const { kind, targetRef, backendText } = dest;
  // ports
  const portRangeText = str('portRange');
  const portRange =
    portRangeText === undefined ? undefined : normalizePortRange('portRange', portRangeText);
  const ports = list<string>('ports');
  if (ports) {
    if (ports.length > FORWARDING_RULE_LIMITS.ports) {
      throw invalid(
        'ports',
        '',
        `At most ${FORWARDING_RULE_LIMITS.ports} ports may be given, not ${ports.length}.`,
      );
    }
    for (const [i, port] of ports.entries()) normalizePortRange(`ports[${i}]`, port);
  }
  const allPorts = flag('allPorts');
  if (portRange !== undefined && ports) {
    throw invalid('ports', '', 'portRange and ports are mutually exclusive: set one of them.');
  }
  if (allPorts && (portRange !== undefined || ports)) {
    throw invalid(
      'allPorts',
      true,
      'allPorts, portRange and ports are mutually exclusive: set one of them.',
    );
  }
  const portField = portRange !== undefined ? 'portRange' : 'ports';
  const portValue = portRange ?? '';
  if (protocol === 'L3_DEFAULT') {
    if (portRange !== undefined || ports) {
      throw invalid(
        portField,
        portValue,
        'The L3_DEFAULT protocol takes no portRange or ports: set allPorts to true.',
      );
    }
    if (!allPorts) {
      throw invalid('allPorts', false, 'The L3_DEFAULT protocol requires allPorts to be true.');
    }
  } else if ((portRange !== undefined || ports) && !PORT_PROTOCOLS.includes(protocol)) {
    throw invalid(
      portField,
      portValue,
      `Ports can only be given with IPProtocol TCP, UDP or SCTP, not ${protocol}.`,
    );
  } else if (allPorts && !PORT_PROTOCOLS.includes(protocol)) {
    throw invalid(
      'allPorts',
      true,
      `allPorts requires IPProtocol TCP, UDP, SCTP or L3_DEFAULT, not ${protocol}.`,
    );
  }
  // Which products take which port field (decided only from what the body says).
  const targetCollection = targetRef?.collection;
  const passthroughTarget =
    targetCollection === undefined || targetCollection === 'targetInstances';
  if (kind === 'PSC' && (portRange !== undefined || ports || allPorts)) {
    throw invalid(
      portRange !== undefined ? 'portRange' : ports ? 'ports' : 'allPorts',
      portRange ?? (ports ? '' : true),
      'A Private Service Connect forwarding rule forwards every port; it takes no port fields.',
    );
  }
  if (portRange !== undefined && kind === 'INTERNAL' && backendText !== undefined) {
    throw invalid(
      'portRange',
      portRange,
      'An internal passthrough forwarding rule selects ports with ports or allPorts, not portRange.',
    );
  }
  if (ports && !(kind === 'INTERNAL' || (kind === 'EXTERNAL' && targetCollection === undefined))) {
    throw invalid(
      'ports',
      '',
      'ports are used only by internal passthrough, backend service-based external passthrough and internal protocol forwarding rules; use portRange.',
    );
  }
  if (allPorts && !((kind === 'INTERNAL' || kind === 'EXTERNAL') && passthroughTarget)) {
    throw invalid(
      'allPorts',
      true,
      'allPorts is used only by internal and external passthrough (backend service-based) and protocol forwarding rules.',
    );
  }

  return { portRange, ports, allPorts };
}
