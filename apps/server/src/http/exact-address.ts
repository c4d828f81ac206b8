import ipaddr from 'ipaddr.js';

/**
 * One address exactly, in one spelling: IPv4 as is, IPv4-mapped IPv6 as the IPv4 it carries, IPv6
 * in its full normalised form (no prefix, no zone). For lists that name hosts, such as an OPRF
 * node's `SERVER_CLIENTS`, where `clientKey`'s /64 grouping would extend a server's allowance to
 * every neighbour in its network (issue 24, item 6). Not an IP address: undefined.
 */
export function exactAddress(address: string): string | undefined {
  const bare = address.replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return undefined;
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const ipv6 = parsed as ipaddr.IPv6;
  return ipv6.isIPv4MappedAddress() ? ipv6.toIPv4Address().toString() : ipv6.toNormalizedString();
}
