// Stage 3: the rule's address (IPAddress, ipVersion) and its network, subnetwork and ipCollection.
import { resourceNotFound } from '../../core/compute-refusals.js';
import { scopedName } from '../../names/resource-names.js';
import { canonicalAddress } from '../addresses/ip-addresses.js';
import type { BodyReader } from './body-reader.js';
import type { NameAndEnums } from './check-name-region-enums.js';
import type { Destination } from './check-target-and-backend.js';
import { invalid, required } from './errors.js';
import { RFC1035 } from './patterns-and-limits.js';
import { readReference, resourcePath } from './reference-paths.js';

/** What stage 3 learns. */
export interface Addressing {
  /** The canonical literal address, when one was given. */
  address: string | undefined;
  ipv6: boolean;
  networkText: string | undefined;
  subnetworkText: string | undefined;
  ipCollectionText: string | undefined;
}

/** Checks IPAddress (a literal; an Address reference is 404), ipVersion, and the VPC references. */
export function checkAddresses(r: BodyReader, known: NameAndEnums, dest: Destination): Addressing {
  const { str, ctx } = r;
  const { googleApis, ipVersion } = known;
  const { kind } = dest;
  // IPAddress and ipVersion
  let address: string | undefined;
  let addressFamily: 4 | 6 | undefined;
  const addressText = str('IPAddress');
  if (addressText !== undefined) {
    address = canonicalAddress(addressText);
    if (address === undefined) {
      const ref = readReference(addressText, ctx.project);
      const named = RFC1035.test(addressText)
        ? scopedName(ctx, 'addresses', addressText)
        : ref?.collection === 'addresses' && ref.scope !== 'zones'
          ? resourcePath(ref)
          : undefined;
      if (named !== undefined) {
        // The emulator holds no Address resources, so every reference is to a missing one.
        throw resourceNotFound(named);
      }
      throw invalid(
        'IPAddress',
        addressText,
        'Must be a literal IP address or URL referencing an Address resource.',
      );
    }
    addressFamily = address.includes(':') ? 6 : 4;
  } else if (googleApis) {
    throw required('IPAddress');
  }
  if (ipVersion !== undefined && addressFamily !== undefined) {
    const wanted = ipVersion === 'IPV6' ? 6 : 4;
    if (wanted !== addressFamily) {
      throw invalid(
        'ipVersion',
        ipVersion,
        `The IP address '${addressText}' is an IPv${addressFamily} address.`,
      );
    }
  }
  const ipv6 = ipVersion === 'IPV6' || addressFamily === 6;

  // network, subnetwork, ipCollection
  const networkText = str('network');
  if (networkText !== undefined) {
    const ref = readReference(networkText, ctx.project);
    if (ref?.collection !== 'networks' || ref.scope !== 'global') {
      throw invalid('network', networkText, 'The URL is malformed.');
    }
  } else if (googleApis) {
    throw required('network');
  }
  const subnetworkText = str('subnetwork');
  if (subnetworkText !== undefined) {
    const ref = readReference(subnetworkText, ctx.project);
    if (ref?.collection !== 'subnetworks' || ref.scope !== 'regions') {
      throw invalid('subnetwork', subnetworkText, 'The URL is malformed.');
    }
    // A global rule's subnetwork (a cross-region internal one) may be in any region.
    if (ctx.region !== undefined && ref.location !== ctx.region) {
      throw invalid(
        'subnetwork',
        subnetworkText,
        `The subnetwork must be in the region of the forwarding rule, ${ctx.region}.`,
      );
    }
    if (kind === 'EXTERNAL_MANAGED' || (kind === 'EXTERNAL' && !ipv6)) {
      throw invalid(
        'subnetwork',
        subnetworkText,
        'A subnetwork is used only by internal, Private Service Connect and IPv6 external passthrough forwarding rules.',
      );
    }
  } else if (kind === 'EXTERNAL' && ipv6 && ctx.region !== undefined) {
    // Regional IPv6 passthrough rules take their address from a subnetwork.
    throw required('subnetwork');
  }
  const ipCollectionText = str('ipCollection');
  if (ipCollectionText !== undefined) {
    const ref = readReference(ipCollectionText, ctx.project);
    if (ref?.collection !== 'publicDelegatedPrefixes' || ref.scope !== 'regions') {
      throw invalid('ipCollection', ipCollectionText, 'The URL is malformed.');
    }
    if (ctx.region !== undefined && ref.location !== ctx.region) {
      throw invalid(
        'ipCollection',
        ipCollectionText,
        `The public delegated prefix must be in the region of the forwarding rule, ${ctx.region}.`,
      );
    }
    if (kind !== 'EXTERNAL' || !ipv6) {
      throw invalid(
        'ipCollection',
        ipCollectionText,
        'An ipCollection is used only by IPv6 external passthrough forwarding rules (BYOIP).',
      );
    }
  }

  return { address, ipv6, networkText, subnetworkText, ipCollectionText };
}
