import { describe, expect, it } from 'vitest';
import { clientKey, NO_ADDRESS } from './client-key.ts';
import { exactAddress } from './exact-address.ts';

describe('clientKey', () => {
  it('keys IPv4 by address, and IPv4-mapped IPv6 as the IPv4 address it carries', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::FFFF:cb00:7107')).toBe('203.0.113.7');
  });

  it('groups IPv6 by its /64 network by default, whatever the spelling', () => {
    const network = '2001:db8:1:2:0:0:0:0/64';
    expect(clientKey('2001:db8:1:2::1')).toBe(network);
    expect(clientKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe(network);
    expect(clientKey('2001:db8:1:2:aaaa::7%eth0')).toBe(network);
    expect(clientKey('2001:db8:1:3::1')).toBe('2001:db8:1:3:0:0:0:0/64');
    expect(clientKey('::1')).toBe('0:0:0:0:0:0:0:0/64');
  });

  it('uses the configured prefix, down to single addresses at /128', () => {
    expect(clientKey('2001:db8:1:2ff::1', 56)).toBe('2001:db8:1:200:0:0:0:0/56');
    expect(clientKey('2001:db8:1:2::1', 48)).toBe('2001:db8:1:0:0:0:0:0/48');
    expect(clientKey('2001:db8:1:2::1', 128)).toBe('2001:db8:1:2:0:0:0:1/128');
    expect(clientKey('2001:db8:1:2::1', 128)).not.toBe(clientKey('2001:db8:1:2::2', 128));
    expect(clientKey('2001:db8:ffff::1', 24)).toBe('2001:d00:0:0:0:0:0:0/24');
  });

  it('drops the port a proxy may write into X-Forwarded-For, so its clients are not all NO_ADDRESS (decision 071)', () => {
    expect(clientKey('203.0.113.7:4711')).toBe('203.0.113.7');
    expect(clientKey('203.0.113.8:4711')).toBe('203.0.113.8');
    expect(clientKey('[2001:db8:1:2::1]:443')).toBe('2001:db8:1:2:0:0:0:0/64');
    expect(clientKey('[2001:db8:1:2::1]')).toBe('2001:db8:1:2:0:0:0:0/64');
    expect(clientKey('[::ffff:203.0.113.7]:80')).toBe('203.0.113.7');
    expect(exactAddress('203.0.113.7:4711')).toBe('203.0.113.7');
    expect(exactAddress('[2001:db8::1]:443')).toBe('2001:db8:0:0:0:0:0:1');
    // Only a port: anything else after the address is still no address.
    for (const word of ['203.0.113.7:http', '203.0.113.7:1:2', '[2001:db8::1]x', '[garbage]:80', '203.0.113.7:123456']) {
      expect(clientKey(word), word).toBe(NO_ADDRESS);
      expect(exactAddress(word), word).toBeUndefined();
    }
  });

  it('keys every non-IP address alike, so no word poses as another key (decision 053)', () => {
    for (const word of ['garbage1', 'server 127.0.0.1', 'unknown', '', '203.0.113.7 ', '2001:db8::/64']) {
      expect(clientKey(word)).toBe(NO_ADDRESS);
    }
    expect(clientKey('203.0.113.7')).not.toBe(NO_ADDRESS);
  });
});
