import { describe, expect, it } from 'vitest';
import { isLoopbackLink } from './is-loopback-link.ts';

describe('isLoopbackLink', () => {
  it('names the addresses a phone resolves to itself', () => {
    for (const link of [
      'http://127.0.0.1:8080/x',
      'http://127.1.2.3/x',
      'http://localhost:8080/x',
      'http://app.localhost/x',
      'http://[::1]:8080/x',
    ]) {
      expect(isLoopbackLink(new URL(link)), link).toBe(true);
    }
  });
  it('leaves alone the addresses another device can reach', () => {
    for (const link of [
      'http://192.168.1.20:8080/x',
      'https://zeroid.example/x',
      'http://[fe80::1]/x',
      'http://127.example/x',
      'http://10.0.0.127/x',
    ]) {
      expect(isLoopbackLink(new URL(link)), link).toBe(false);
    }
  });
});
