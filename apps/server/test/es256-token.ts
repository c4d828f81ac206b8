import { createPrivateKey, createPublicKey, sign, verify, type JsonWebKey } from 'node:crypto';

/**
 * An ES256 JWT signed with a private JWK, as anyone holding a copy of that key could mint it: for
 * tests of which keys a site would still accept (decision 049).
 */
export function mintToken(privateJwk: JsonWebKey & { kid: string }, claims: Record<string, unknown>): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part({ alg: 'ES256', kid: privateJwk.kid, typ: 'JWT' })}.${part(claims)}`;
  const key = createPrivateKey({ key: privateJwk, format: 'jwk' });
  return `${input}.${sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

/** True when a key of `jwks` with the token's kid verifies its ES256 signature, as a site's library checks it. */
export function verifiesAgainst(
  token: string,
  jwks: { keys: ReadonlyArray<{ kid?: string; kty?: string; crv?: string; x?: string; y?: string }> },
): boolean {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const { kid } = JSON.parse(Buffer.from(header, 'base64url').toString()) as { kid: string };
  const jwk = jwks.keys.find((key) => key.kid === kid);
  if (!jwk) return false;
  const { kty, crv, x, y } = jwk;
  return verify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    { key: createPublicKey({ key: { kty, crv, x, y }, format: 'jwk' }), dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
}
