/** A sector document is a short list of URIs; anything much larger is not one. */
const MAX_BYTES = 64 * 1024;
const TIMEOUT_MS = 10_000;

/**
 * Checks a client's `sector_identifier_uri` when the client is registered (OpenID Connect Core §8.1,
 * decision 029): an https URL whose document, fetched now, is a JSON array of strings that lists every
 * redirect URI of the client. oidc-provider would check the same thing only for pairwise subject
 * types, and on every process that loads the client; we check it once, at `add-client`, so a site's
 * server being down never stops sign-ins, and so the sector (the URI's host) is proven to be the
 * site's before any pseudonym is shared under it. The answer is a problem to print, or undefined.
 */
export async function sectorDocumentProblem(uri: string, redirectUris: readonly string[], fetchImpl = fetch): Promise<string | undefined> {
  if (!URL.canParse(uri)) return `"${uri}" is not an absolute URL`;
  const url = new URL(uri);
  if (url.protocol !== 'https:') return `the sector_identifier_uri "${uri}" must be https`;
  if (url.hash) return `the sector_identifier_uri "${uri}" must not have a fragment`;
  // The sector is the document at one host and path (decision 049): no query to vary it by.
  if (url.search) return `the sector_identifier_uri "${uri}" must not have a query`;
  let text: string;
  try {
    // No redirects: the document must be at the host that becomes the sector.
    const response = await fetchImpl(url, {
      headers: { accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (response.status !== 200) return `the sector_identifier_uri answered ${response.status}, not 200`;
    text = await response.text();
  } catch (error) {
    return `the sector_identifier_uri could not be read: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (text.length > MAX_BYTES) return 'the sector_identifier_uri document is too large';
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return 'the sector_identifier_uri document is not JSON';
  }
  if (!Array.isArray(document) || document.some((entry) => typeof entry !== 'string')) {
    return 'the sector_identifier_uri document must be a JSON array of redirect URIs';
  }
  const missing = redirectUris.filter((redirectUri) => !document.includes(redirectUri));
  if (missing.length > 0) return `the sector_identifier_uri document does not list ${missing.map((m) => `"${m}"`).join(', ')}`;
  return undefined;
}
