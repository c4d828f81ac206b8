import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact-url.ts';

const SESSION = '0123456789abcdef0123456789abcdef';

describe('redactUrl', () => {
  it('shows a matched route as its pattern, never its parameters', () => {
    expect(redactUrl(`/sessions/${SESSION}/events`, '/sessions/:id/events')).toBe('/sessions/:id/events');
    expect(redactUrl('/did/did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH', '/did/:did')).toBe('/did/:did');
    expect(redactUrl('/healthz', '/healthz')).toBe('/healthz');
  });

  it('drops every query string, a session among them', () => {
    expect(redactUrl(`/generateQRCode?session=${SESSION}`, '/generateQRCode')).toBe('/generateQRCode?[redacted]');
    expect(redactUrl(`/user-verification?session=${SESSION}&x=1`, undefined)).toBe('/user-verification?[redacted]');
    expect(redactUrl('/members?bucket=ab', '/members')).toBe('/members?[redacted]');
  });

  it('keeps only the first segment of a path that matched no route, malformed or not', () => {
    expect(redactUrl(`/sessions/${SESSION}/nope`, undefined)).toBe('/sessions/[redacted]');
    expect(redactUrl(`/sessions/${SESSION}%zz`, undefined)).toBe('/sessions/[redacted]');
    expect(redactUrl('/%zz', undefined)).toBe('/%zz');
    expect(redactUrl('/', undefined)).toBe('/');
    expect(redactUrl('*', undefined)).toBe('*');
  });
});
