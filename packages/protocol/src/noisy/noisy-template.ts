import { base64, base64urlnopad, hex } from '@scure/base';

/** The fewest bits an iris code may have: a Daugman code is 2,048 bits; World's is 12,800. */
export const MIN_CODE_BITS = 2048;
/** The dimensions a feature vector may have: 128 (FaceNet, dlib) to 4,096, with room either side of 512 (ArcFace). */
export const MIN_DIMENSIONS = 64;
export const MAX_DIMENSIONS = 4096;

/**
 * A biometric template read from text. `bits` holds one bit per byte (0 or 1); `valid` says which bits
 * the reader saw (1) and which it masked (0: eyelid, lashes, reflection). A feature vector keeps its
 * numbers; `projectEmbedding` turns it into bits.
 */
export type NoisyTemplate = { kind: 'code'; bits: Uint8Array; valid: Uint8Array } | { kind: 'vector'; vector: Float64Array };

const HEX = /^[0-9a-fA-F]+$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

function decodeCode(text: string): Uint8Array | undefined {
  try {
    if (HEX.test(text) && text.length % 2 === 0) return hex.decode(text.toLowerCase());
    if (BASE64.test(text) && text.length % 4 === 0) return base64.decode(text);
    if (BASE64URL.test(text)) return base64urlnopad.decode(text);
  } catch {
    return undefined;
  }
  return undefined;
}

function unpack(bytes: Uint8Array): Uint8Array {
  const bits = new Uint8Array(bytes.length * 8);
  for (let i = 0; i < bits.length; i++) bits[i] = (bytes[i >> 3]! >> (7 - (i & 7))) & 1;
  return bits;
}

function parseVector(text: string): Float64Array | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length < MIN_DIMENSIONS || parsed.length > MAX_DIMENSIONS) return undefined;
  if (!parsed.every((x): x is number => typeof x === 'number' && Number.isFinite(x))) return undefined;
  // A zero vector has no direction, so no projection bits: it stays exact text.
  if (parsed.every((x) => x === 0)) return undefined;
  return Float64Array.from(parsed);
}

/**
 * Reads a biometric text as a noisy template, or returns undefined so the text keeps its exact
 * meaning. Two shapes are templates: an iris code of at least 2,048 bits in hex, base64 or base64url,
 * optionally followed by white space or ':' and a mask of the same length (bit 1 = seen), and a JSON
 * array of 64 to 4,096 finite numbers (a face embedding). Anything else, including a code shorter than
 * 2,048 bits or a mask of another length, is not a template. The text is read, never kept or logged.
 */
export function parseNoisyTemplate(text: string): NoisyTemplate | undefined {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    const vector = parseVector(trimmed);
    return vector && { kind: 'vector', vector };
  }
  const parts = trimmed.split(/[\s:]+/);
  if (parts.length > 2) return undefined;
  const code = decodeCode(parts[0]!);
  if (!code || code.length * 8 < MIN_CODE_BITS) return undefined;
  const bits = unpack(code);
  if (parts.length === 1) return { kind: 'code', bits, valid: new Uint8Array(bits.length).fill(1) };
  const mask = decodeCode(parts[1]!);
  if (!mask || mask.length !== code.length) return undefined;
  return { kind: 'code', bits, valid: unpack(mask) };
}
