import { base64urlnopad } from '@scure/base';
import { bytesToNumberLE } from '@noble/curves/utils.js';
import { ProtocolInputError } from '../errors.ts';
import { normaliseInput } from '../normalise-input.ts';
import { Fn, Point, type AffinePoint } from '../v3/baby-jubjub-group.ts';
import { CREDENTIAL_PREFIX, NEVER_EXPIRES, dayNumber, type Credential } from './credential-format.ts';
import { parseIssuerKey } from './issuer-key.ts';

const BASE64URL = /^[A-Za-z0-9_-]*$/;
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Whether a normalised ID is meant as a credential: it starts with the credential prefix, which is
 * reserved in any case, so a credential whose prefix a paste or an editor changed to upper case is
 * refused as malformed instead of registering silently as a plain ID.
 */
export function isCredentialText(normalised: string): boolean {
  const head = normalised.slice(0, CREDENTIAL_PREFIX.length + 1).toLowerCase();
  return head === `${CREDENTIAL_PREFIX}.` || head === CREDENTIAL_PREFIX;
}

/**
 * A point's one encoding, on the curve; not checked to be in the subgroup: for R8 the signature's
 * equation does that (S·Base8 − 8·h·A is in it), and the check costs a scalar multiplication.
 */
function canonicalPoint(bytes: Uint8Array): AffinePoint | undefined {
  try {
    const point = Point.fromBytes(bytes);
    return point.toBytes().every((byte, i) => byte === bytes[i]) ? point.toAffine() : undefined;
  } catch {
    return undefined;
  }
}

const malformed = (what: string) => new ProtocolInputError('MALFORMED_CREDENTIAL', `The credential is malformed: ${what}.`);

function base64url(field: string, what: string): Uint8Array {
  if (!BASE64URL.test(field)) throw malformed(what);
  try {
    return base64urlnopad.decode(field);
  } catch {
    throw malformed(what);
  }
}

/**
 * Reads a credential line (`issueCredential`'s) into its fields, each checked to be canonical: the
 * issuer key a valid subgroup point, the expiry a real date or `never`, the ID normalised UTF-8, R8 a
 * canonical curve point and S below ℓ. White space a paste may have put inside the line is ignored. It does
 * not check the signature, the trust or the expiry (`verifyCredentialSignature`, then the server's
 * rules). The messages never quote the credential.
 * @throws ProtocolInputError('MALFORMED_CREDENTIAL') naming the field that is wrong.
 */
export function readCredential(text: string): Credential {
  const fields = text.replace(/\s+/g, '').split('.');
  if (fields[0] !== CREDENTIAL_PREFIX) throw malformed('it does not start with ' + CREDENTIAL_PREFIX);
  if (fields.length !== 5) throw malformed('it needs five fields separated by dots');
  const [, issuerKey, expires, encodedId, encodedSignature] = fields as [string, string, string, string, string];
  const issuer = parseIssuerKey(issuerKey);
  if (!issuer) throw malformed('the issuer key is not a valid public key');
  const expiryDay = expires === NEVER_EXPIRES ? 0 : dayNumber(expires);
  if (expiryDay === undefined) throw malformed('the expiry is not a date written YYYY-MM-DD');
  let id: string;
  try {
    id = decoder.decode(base64url(encodedId, 'the ID is not base64url'));
  } catch (error) {
    if (error instanceof ProtocolInputError) throw error;
    throw malformed('the ID is not UTF-8 text');
  }
  // The issuer signed the normalised ID: one that is not normalised was not issued by our tools.
  if (id === '' || normaliseInput(id) !== id) throw malformed('the ID is not normalised text');
  const signature = base64url(encodedSignature, 'the signature is not base64url');
  if (signature.length !== 64) throw malformed('the signature is not 64 bytes');
  const R8 = canonicalPoint(signature.subarray(0, 32));
  const S = bytesToNumberLE(signature.subarray(32));
  if (!R8 || S >= Fn.ORDER) throw malformed('the signature is not canonical');
  return {
    issuerKey,
    issuer,
    id,
    expires: expiryDay === 0 ? undefined : expires,
    expiryDay,
    signature: { R8: [R8.x, R8.y], S },
  };
}
