import { isIPv4, isIPv6 } from 'node:net';

/**
 * The client a request counts against, from its address as Fastify sees it (`request.ip`, which
 * honours X-Forwarded-For only through the configured trusted proxy). One function keys every
 * per-client limit (the burst limit, the guess budget, the failure throttle), so they all agree.
 *
 * - IPv4: the address itself.
 * - IPv4-mapped IPv6 (`::ffff:192.0.2.1`): the IPv4 address it carries, so a dual-stack socket does
 *   not give a client a second identity.
 * - IPv6: its network of `ipv6Prefix` bits (default /64). One subscriber is routinely given a whole
 *   /64 (RFC 6177 recommends /56 or /48 for a site), so keyed by address an attacker would hold 2^64
 *   fresh clients, each with a fresh allowance.
 */
export function clientKey(address: string, ipv6Prefix = 64): string {
  const bare = address.replace(/%.*$/, ''); // a zone index (fe80::1%eth0) names our interface, not the client
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return address;
  const groups = ipv6Groups(bare);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `${groups[6]! >> 8}.${groups[6]! & 0xff}.${groups[7]! >> 8}.${groups[7]! & 0xff}`;
  }
  const masked = groups.map((group, i) => {
    const bits = Math.min(16, Math.max(0, ipv6Prefix - i * 16));
    return group & ((0xffff << (16 - bits)) & 0xffff);
  });
  return `${masked.map((g) => g.toString(16)).join(':')}/${ipv6Prefix}`;
}

/** The eight 16-bit groups of a valid IPv6 address, `::` expanded and a trailing dotted IPv4 read. */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}
