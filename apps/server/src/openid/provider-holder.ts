import type Provider from 'oidc-provider';
import type { TrustedIssuer } from '../credentials/trusted-issuers.ts';
import type { OidcRepository } from '../storage/types.ts';
import { createProvider } from './create-provider.ts';
import { KEY_REFRESH_MS, loadOidcKeys } from './signing-keys.ts';

/**
 * The process's provider, built on first use (the database may not be reachable when the app is
 * built) and rebuilt when the stored keys change: a rotation, or a new key becoming the one that
 * signs. Its state is all in storage, so a rebuilt provider continues every login in flight. The
 * keys are stored sealed under `keySecret`, which is never in the database (decision 038).
 */
export function providerHolder(options: {
  issuer: string;
  oidc: OidcRepository;
  keySecret: Uint8Array;
  signInTtlSeconds: number;
  trustedIssuers: readonly TrustedIssuer[];
}) {
  let current: { provider: Provider; keys: string; checkedAt: number } | undefined;
  let loading: Promise<Provider> | undefined;

  const load = async () => {
    const keys = await loadOidcKeys(options.oidc, options.keySecret);
    const fingerprint = JSON.stringify([keys.signing.map((key) => key.kid), keys.cookie.length]);
    if (current?.keys !== fingerprint) {
      const provider = createProvider({
        issuer: options.issuer,
        oidc: options.oidc,
        signing: keys.signing,
        cookieKeys: keys.cookie,
        signInTtlSeconds: options.signInTtlSeconds,
        trustedIssuers: options.trustedIssuers,
      });
      // The routes set X-Forwarded-Host and -Proto to PUBLIC_URL's before every hand-over.
      provider.proxy = true;
      current = { provider, keys: fingerprint, checkedAt: Date.now() };
    } else {
      current.checkedAt = Date.now();
    }
    return current.provider;
  };

  return function provider(): Promise<Provider> {
    if (current && Date.now() - current.checkedAt < KEY_REFRESH_MS) return Promise.resolve(current.provider);
    loading ??= load().finally(() => {
      loading = undefined;
    });
    // A failed refresh keeps the provider we have; with none yet, the failure (storage down) is a 503.
    return current ? loading.catch(() => current!.provider) : loading;
  };
}
