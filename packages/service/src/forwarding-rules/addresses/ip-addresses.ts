import ipaddr from 'ipaddr.js';

/** An IP address or CIDR range, as a forwarding rule's IPAddress or sourceIpRanges hold them. */
export interface IpRange {
  address: ipaddr.IPv4 | ipaddr.IPv6;
  /** The prefix length; 32 or 128 for a single address. */
  prefix: number;
}

const PREFIX = /^(?:0|[1-9]\d{0,2})$/;

/**
 * Reads an address as Compute writes them: IPv4 only as a dotted quad without leading zeros
 * (ipaddr.js alone also takes `0x7f.1`, `127.1`), IPv6 in any RFC 4291 form without a zone.
 *
 * @example
 * ```ts
 * parseIp('2001:DB8::1')?.kind(); // 'ipv6'
 * parseIp('010.1.2.3'); // undefined
 * ```
 */
export function parseIp(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (text.includes(':') && !text.includes('%') && ipaddr.IPv6.isValid(text)) {
    return ipaddr.IPv6.parse(text);
  }
  return undefined;
}

/**
 * `1.2.3.4`, `1.2.3.0/24`, `2001:db8::1`, `2001:db8::/32`; undefined for anything else (a prefix
 * with leading zeros or longer than the address included).
 *
 * @example
 * ```ts
 * parseRange('10.0.0.0/8')?.prefix; // 8
 * ```
 */
export function parseRange(text: string): IpRange | undefined {
  const slash = text.indexOf('/');
  const address = parseIp(slash < 0 ? text : text.slice(0, slash));
  if (!address) return undefined;
  const bits = address.kind() === 'ipv4' ? 32 : 128;
  if (slash < 0) return { address, prefix: bits };
  const prefix = text.slice(slash + 1);
  if (!PREFIX.test(prefix) || Number(prefix) > bits) return undefined;
  return { address, prefix: Number(prefix) };
}

/**
 * Whether two ranges share an address (never across IPv4 and IPv6).
 *
 * @example
 * ```ts
 * rangesOverlap(parseRange('10.0.0.0/8')!, parseRange('10.1.0.0/16')!); // true
 * ```
 */
export function rangesOverlap(a: IpRange, b: IpRange): boolean {
  if (a.address.kind() !== b.address.kind()) return false;
  const bits = Math.min(a.prefix, b.prefix);
  return a.address.kind() === 'ipv4'
    ? (a.address as ipaddr.IPv4).match(b.address as ipaddr.IPv4, bits)
    : (a.address as ipaddr.IPv6).match(b.address as ipaddr.IPv6, bits);
}

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const DOTTED_QUAD = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);

/**
 * The canonical text of a literal `IPAddress`: an IPv4 address as given (ranges are not
 * addresses), an IPv6 address or range in RFC 5952 form; undefined when it is neither.
 *
 * @example
 * ```ts
 * canonicalAddress('2001:DB8:0:0::1'); // '2001:db8::1'
 * ```
 */
export function canonicalAddress(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  // The common case without a parser: a dotted quad with no leading zeros is its own canonical
  // text (every stored rule's address passes here on a restore).
  if (DOTTED_QUAD.test(value)) return value;
  const range = parseRange(value);
  if (!range) return undefined;
  if (range.address.kind() === 'ipv4') return value.includes('/') ? undefined : value;
  const text = (range.address as ipaddr.IPv6).toRFC5952String();
  return value.includes('/') ? `${text}/${range.prefix}` : text;
}
