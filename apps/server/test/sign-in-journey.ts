import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { SemaphoreProof } from '@semaphore-protocol/proof';
import { signInMessage } from '@zeroid/protocol';
import * as client from 'openid-client';
import { expect } from 'vitest';
import type { Artifacts } from '../src/proofs/artifacts.ts';
import { newClientMetadata } from '../src/openid/client-metadata.ts';
import { openStorage, type StorageOptions } from '../src/storage/open-storage.ts';
import { viaHttp, ZkTestClient } from './zk-client.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** `npm run oidc -- …` against a server's database (its environment), parsed from its JSON output. */
export async function oidcCli(env: Record<string, string>, ...args: string[]): Promise<Record<string, string>> {
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(repoRoot, 'apps/server/scripts/oidc.js'), ...args], {
    env: { ...process.env, ...env },
  });
  return JSON.parse(stdout) as Record<string, string>;
}

/**
 * Registers a client straight in a server's database, as `add-client` does, without starting the
 * command line's process (seconds each): for tests whose subject is not the command line. Returns its
 * metadata (with the secret of a confidential client).
 */
export async function addClient(database: StorageOptions, options: Parameters<typeof newClientMetadata>[0]) {
  const metadata = newClientMetadata(options);
  const storage = await openStorage({ ...database, poolSize: 1 });
  try {
    expect(await storage.oidc.addClient(options.id, JSON.stringify(metadata))).toBe(true);
  } finally {
    await storage.close();
  }
  return metadata as typeof metadata & { client_secret?: string };
}

/** A public client, as `add-client --public`. */
export const addPublicClient = (database: StorageOptions, id: string, redirectUri: string) =>
  addClient(database, { id, redirectUris: [redirectUri], public: true });

/** A site's openid-client configuration, discovered at the issuer, every check on (ID token signatures too). */
export async function discoverSite(issuer: string, clientId: string, secret?: string): Promise<client.Configuration> {
  const config = await client.discovery(new URL(issuer), clientId, secret, secret ? undefined : client.None(), {
    execute: [client.allowInsecureRequests],
  });
  client.enableNonRepudiationChecks(config);
  return config;
}

/** A browser of one: the cookies the provider sets, sent back on the paths they are for. */
export class Browser {
  readonly cookies: Array<{ name: string; value: string; path: string }> = [];

  /** The Cookie header this browser sends to `url`. */
  cookieFor(url: string): string {
    const { pathname } = new URL(url);
    return this.cookies
      .filter((c) => pathname.startsWith(c.path))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  async fetch(url: string, init: { method?: string; body?: object; form?: Record<string, string>; headers?: Record<string, string> } = {}) {
    const cookie = this.cookieFor(url);
    const response = await fetch(url, {
      method: init.method ?? 'GET',
      redirect: 'manual',
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(init.body ? { 'content-type': 'application/json' } : {}),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...init.headers,
      },
      body: init.body ? JSON.stringify(init.body) : init.form ? new URLSearchParams(init.form) : undefined,
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, value] = pair!.split('=') as [string, string];
      const cookiePath =
        attributes
          .map((x) => x.trim())
          .find((x) => x.toLowerCase().startsWith('path='))
          ?.slice(5) ?? '/';
      const existing = this.cookies.findIndex((c) => c.name === name && c.path === cookiePath);
      if (existing >= 0) this.cookies.splice(existing, 1);
      const expired = value === '' || attributes.some((x) => /^expires=Thu, 01 Jan 1970/i.test(x.trim()));
      if (!expired) this.cookies.push({ name, value, path: cookiePath });
    }
    return response;
  }
}

export interface SignInDetails {
  site: { name: string; host: string };
  scope: string;
  challenge: string;
}

/**
 * Sign in with ZeroID as a site and a person's browser drive it, against real server processes that
 * share one issuer (PUBLIC_URL, `issuer`): the authorization request, ZeroID's sign-in screen, the
 * proof (made in Node with the protocol code the browser runs) and the way back to the site.
 */
export function signInJourney(issuer: string, artifacts: Artifacts) {
  /** The start of a login at a site: the authorization request, up to ZeroID's sign-in screen. */
  async function startLogin(
    config: client.Configuration,
    redirectUri: string,
    { server = issuer, browser = new Browser(), extra = {} }: { server?: string; browser?: Browser; extra?: Record<string, string> } = {},
  ) {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      ...extra,
    });
    const toSignIn = await browser.fetch(url.href.replace(issuer, server));
    expect(toSignIn.status).toBe(303);
    const uid = /^\/signin\/([A-Za-z0-9_-]+)$/.exec(toSignIn.headers.get('location') ?? '')?.[1];
    expect(uid).toBeDefined();
    const details = (await (await browser.fetch(`${server}/signin/${uid}/details`)).json()) as SignInDetails;
    return { browser, uid: uid!, details, checks: { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce }, server };
  }
  type Login = Awaited<ReturnType<typeof startLogin>>;

  /** The person's proof for the given scope and message, as their browser makes it. */
  async function prove(bio: string, scope: string, message: string): Promise<SemaphoreProof> {
    const zk = new ZkTestClient(viaHttp(issuer), artifacts);
    const identity = await zk.identityOf(bio);
    return zk.proveAt(identity, scope, message);
  }

  /** Submits the proof (or a cancel) and follows the provider back to the site: the URL the site is sent to. */
  async function finish(login: Login, proof: SemaphoreProof | 'cancel', challenge = login.details.challenge): Promise<URL> {
    const { browser, uid, server } = login;
    const reply =
      proof === 'cancel'
        ? await browser.fetch(`${server}/signin/${uid}/cancel`, { method: 'POST' })
        : await browser.fetch(`${server}/signin/${uid}/proof`, { method: 'POST', body: { proof, challenge } });
    expect(reply.status).toBe(200);
    const { redirectTo } = (await reply.json()) as { redirectTo: string };
    expect(redirectTo.startsWith(`${issuer}/oidc/auth/`)).toBe(true);
    const back = await browser.fetch(redirectTo.replace(issuer, server));
    expect(back.status).toBe(303);
    return new URL(back.headers.get('location')!);
  }

  const provedLogin = async (login: Login, bio: string) =>
    finish(login, await prove(bio, login.details.scope, signInMessage(login.details.challenge, login.uid)));

  /** A whole sign-in of the person with `bio` at a site: the tokens the site's library gets. */
  async function signIn(config: client.Configuration, redirectUri: string, bio: string, options: Parameters<typeof startLogin>[2] = {}) {
    const login = await startLogin(config, redirectUri, options);
    return client.authorizationCodeGrant(config, await provedLogin(login, bio), login.checks);
  }

  return { startLogin, prove, finish, provedLogin, signIn };
}

export type SignInJourney = ReturnType<typeof signInJourney>;
export type Login = Awaited<ReturnType<SignInJourney['startLogin']>>;
