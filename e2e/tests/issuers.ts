/**
 * The issuer the e2e server trusts (playwright.config.ts sets TRUSTED_ISSUERS to "Example University="
 * and this key's public key): a fixed test key, so that the specs can issue credentials.
 */
export const E2E_ISSUER_KEY = new Uint8Array(32).fill(1);

/** `issuerPublicKey(E2E_ISSUER_KEY)`, as TRUSTED_ISSUERS lists it. */
export const E2E_ISSUER_PUBLIC_KEY = '_lGG0Qj8U5QMNdHC9K9Ouy0gRazYFDtLwHGbrT85JCY';
