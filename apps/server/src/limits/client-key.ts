import ipaddr from 'ipaddr.js';
import { parseAddress } from './parse-address.ts';

/** The one client key of every request whose address is not an IP address (no address key looks like it). */
export const NO_ADDRESS = 'no IP address';

/**
 * The client a request counts against, from its address as Fastify sees it (`request.ip`, which
 * honours X-Forwarded-For only through the configured trusted proxy). One function keys every
 * per-client limit (the burst limit, the guess budget, the failure throttle), so they all agree.
 *
 * The address may carry a port, as some proxies write X-Forwarded-For; it is dropped (`parseAddress`).
 * - IPv4: the address itself.
 * - IPv4-mapped IPv6 (`::ffff:192.0.2.1`): the IPv4 address it carries, so a dual-stack socket does
 *   not give a client a second identity.
 * - IPv6: its network of `ipv6Prefix` bits (default /64). One subscriber is routinely given a whole
 *   /64 (RFC 6177 recommends /56 or /48 for a site), so keyed by address an attacker would hold 2^64
 *   fresh clients, each with fresh guesses.
 * - Anything else (through a trusted proxy, X-Forwarded-For can carry any word): one key for all,
 *   `NO_ADDRESS`, so such clients share one client's limits and no word can pose as another key, such as
 *   an OPRF node's "server …" keys for its SERVER_CLIENTS (decision 053).
 */
export function clientKey(address: string, ipv6Prefix = 64): string {
  const parsed = parseAddress(address);
  if (parsed === undefined) return NO_ADDRESS;
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const ipv6 = parsed as ipaddr.IPv6;
  if (ipv6.isIPv4MappedAddress()) return ipv6.toIPv4Address().toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${ipv6.toString()}/${ipv6Prefix}`).toNormalizedString()}/${ipv6Prefix}`;
}
