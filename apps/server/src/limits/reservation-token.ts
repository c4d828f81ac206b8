/**
 * A flow's reservation as a request carries it (the `zeroid-reservation` header, decision 074): a
 * 32-byte token in base64url, 43 characters. Anything else is no reservation, and the request draws on
 * the client's guess bucket.
 */
export const reservationToken = (value: unknown): string | undefined =>
  typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
