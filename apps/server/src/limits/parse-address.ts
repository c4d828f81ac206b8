import ipaddr from 'ipaddr.js';

/** `[2001:db8::1]:443` or `[2001:db8::1]`: a bracketed IPv6 address, with or without a port. */
const BRACKETED = /^\[([^\]]+)\](?::\d{1,5})?$/;
/** `192.0.2.1:4711`: an IPv4 address with a port (a bare IPv6 address has more than one colon). */
const IPV4_WITH_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/;

/**
 * The IP address a client address names, or undefined when it names none. Through a trusted proxy
 * the address is X-Forwarded-For's entry, and some proxies write it with the client's port
 * (`192.0.2.1:4711`, `[2001:db8::1]:4711`, as RFC 7239 allows and Azure Application Gateway does by
 * default): the port is dropped, or every client would count as the one `NO_ADDRESS` (decision 071).
 * A zone index (`fe80::1%eth0`) names our interface, not the client, and is dropped too.
 */
export function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const host = BRACKETED.exec(address)?.[1] ?? IPV4_WITH_PORT.exec(address)?.[1] ?? address;
  const bare = host.replace(/%.*$/, '');
  return ipaddr.isValid(bare) ? ipaddr.parse(bare) : undefined;
}
