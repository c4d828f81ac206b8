import type { Examples } from './operation-guide.ts';

// Values the reference's examples share: shaped as the server sends them, never a real person's.
export const challenge = '3993908896762707977443148568746186084759960651536039885262373659818521859991';
export const did = 'did:key:z6MkhZHwL87T3TAvqbmLwTqnQAjY6um8bauTJjqgQHwf9REU';
export const session = 'de49996f16cfd0b56bd48abd6759f359';
export const expiresAt = '2026-11-26T14:41:16.309Z';
export const siteDetails = {
  site: { name: 'The Example Site', host: 'localhost:3000' },
  scope: '18245627376427364723847623847623874623847623847628374623874',
  challenge,
  expiresAt,
  asksCredential: false,
};
export const anotherTry = { result: 'Failure', challenge, expiresAt };

export const raw = {
  register: { id_info: 'P-1234 Jane Example', bio_info: 'ridge loop whorl delta arch 12 31 57' },
  verify: { bio_info: 'ridge loop whorl delta arch 12 31 57' },
};

/** An error reply `{error:{code,message}}` as an example. */
export const errorExample = (code: string, message: string): Examples => ({
  [code]: { summary: message, value: { error: { code, message } } },
});
