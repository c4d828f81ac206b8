import type ipaddr from 'ipaddr.js';
import { parseAddress } from './parse-address.ts';

/**
 * One address exactly, in one spelling: IPv4 as is, IPv4-mapped IPv6 as the IPv4 it carries, IPv6
 * in its full normalised form (no prefix, no zone, no port). For lists that name hosts, such as an OPRF
 * node's `SERVER_CLIENTS`, where `clientKey`'s /64 grouping would extend a server's limit to
 * every neighbour in its network (decision 033). Not an IP address: undefined.
 */
export function exactAddress(address: string): string | undefined {
  const parsed = parseAddress(address);
  if (parsed === undefined) return undefined;
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const ipv6 = parsed as ipaddr.IPv6;
  return ipv6.isIPv4MappedAddress() ? ipv6.toIPv4Address().toString() : ipv6.toNormalizedString();
}
