import type { SemaphoreProof } from '@semaphore-protocol/proof';
import { ERASURE_RESULT, generateOprfKeyPair, signInMessage, VERIFICATION_RESULT } from '@zeroid/protocol';
import { deriveRegistration } from '@zeroid/protocol/v3';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Artifacts } from '../src/proofs/artifacts.ts';
import { freePort, startServerProcess, type ServerProcess } from './server-process.ts';
import { addPublicClient, discoverSite, signInJourney, type SignInJourney } from './sign-in-journey.ts';
import { removeTempDirs, tempDir } from './support/temp-dir.ts';
import { v3ErasureBody } from './identity-v3.ts';
import { ZkTestClient, type ProvingIdentity, type Reply, type Send } from './zk-client.ts';
import { terminateCurve } from './support/terminate-curve.ts';

/**
 * A day of ordinary use from one address against a real server process at its default settings
 * (decision 074): no limit is set here, every request comes from 127.0.0.1, and every proof is real.
 * Each person registers; registers the same again; verifies ten times with three typos; signs in
 * five times at two sites, once with a typo; verifies across devices; erases; registers anew. Their
 * calls take the guesses each flow needs at its start, as the web app does (`withReservation`).
 */
const REDIRECT_A = 'http://localhost:3001/callback';
const REDIRECT_B = 'http://localhost:3002/callback';
const TYPOS = new Set([2, 5, 8]);

let server: ServerProcess;
let artifacts: Artifacts;
let journey: SignInJourney;
let sites: Array<{ config: client.Configuration; redirect: string }>;

beforeAll(async () => {
  const { privateKey } = await generateOprfKeyPair();
  const port = await freePort();
  const dataDir = tempDir('zeroid-day-');
  const env = {
    DATA_DIR: dataDir,
    OPRF_PRIVATE_KEY: Buffer.from(privateKey).toString('base64url'),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  };
  server = await startServerProcess(env, { port });
  artifacts = await Artifacts.load();
  journey = signInJourney(server.url, artifacts);
  const database = { dataDir };
  await addPublicClient(database, 'site-a', REDIRECT_A);
  await addPublicClient(database, 'site-b', REDIRECT_B);
  sites = [
    { config: await discoverSite(server.url, 'site-a'), redirect: REDIRECT_A },
    { config: await discoverSite(server.url, 'site-b'), redirect: REDIRECT_B },
  ];
}, 180_000);

afterAll(async () => {
  await server?.stop();
  removeTempDirs();
  await terminateCurve();
});

/** One person's device: its API calls carry the running flow's reservation, and every reply is kept. */
class Device {
  readonly replies: Array<{ url: string; status: number }> = [];
  readonly send: Send;
  readonly zk: ZkTestClient;
  private reservation: string | undefined;

  constructor() {
    const send: Send = async ({ method, url, payload }) => {
      const response = await fetch(server.url + url, {
        method,
        headers: {
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...(this.reservation ? { 'zeroid-reservation': this.reservation } : {}),
        },
        body: payload ? JSON.stringify(payload) : undefined,
      });
      const body = await response.text();
      this.replies.push({ url, status: response.status });
      return { statusCode: response.status, body, json: <T>() => JSON.parse(body) as T } satisfies Reply;
    };
    this.send = send;
    this.zk = new ZkTestClient(send, artifacts);
  }

  /** A flow with its guesses taken at its start, the unused ones given back at its end, as the web app runs it. */
  async flow<T>(guesses: number, run: () => Promise<T>): Promise<T> {
    const taken = await this.send({ method: 'POST', url: '/reservations', payload: { guesses } });
    expect(taken.statusCode, `POST /reservations: ${taken.body}`).toBe(200);
    this.reservation = taken.json<{ reservation: string }>().reservation;
    try {
      return await run();
    } finally {
      const reservation = this.reservation;
      this.reservation = undefined;
      await this.send({ method: 'POST', url: '/reservations/release', payload: { reservation } });
    }
  }

  /** A verification as the web app makes it: the v3 round, and for a biometric not found there, the v2 round too. */
  async verification(bio: string, session?: string): Promise<string> {
    return this.flow(2, async () => {
      const proof = await this.zk.prove(bio, undefined, session);
      if (!proof) {
        await this.zk.oprf('bio', bio);
        return 'Failure';
      }
      return (await this.zk.verify(proof, session)).json<Record<string, string>>()[VERIFICATION_RESULT]!;
    });
  }

  async registration(id: string, bio: string): Promise<boolean> {
    return this.flow(4, async () => (await this.zk.register(id, bio)).json<Record<string, boolean>>()['DID already generated']!);
  }
}

/** A membership proof for a site's sign-in (its scope and message), as the sign-in screen makes it. */
function proveAt(send: Send, identity: ProvingIdentity, scope: string, message: string): Promise<SemaphoreProof> {
  return new ZkTestClient(send, artifacts).proveAt(identity, scope, message);
}

/** When the last day began: each begins a minute or more after the one before, as days spread over an hour would. */
let lastStart = 0;

/** The day of one person, `name`; resolves once it is done, with every reply its device had. */
async function dayOf(name: string): Promise<Device> {
  const wait = lastStart + 61_000 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  lastStart = Date.now();
  const device = new Device();
  const id = `DAY-${name}`;
  const bio = `a day of use: ${name}'s left thumb`;
  const typo = bio.replace('left', 'lfet');

  expect(await device.registration(id, bio)).toBe(false);
  expect(await device.registration(id, bio)).toBe(true);

  for (let i = 0; i < 10; i++) {
    expect(await device.verification(TYPOS.has(i) ? typo : bio)).toBe(TYPOS.has(i) ? 'Failure' : 'Success');
  }

  for (let i = 0; i < 5; i++) {
    const site = sites[i % 2]!;
    const login = await journey.startLogin(site.config, site.redirect);
    if (i === 1) {
      // A typo on the sign-in screen: not found under v3 nor v2, and the person types again.
      await device.flow(2, async () => {
        expect(await device.zk.prove(typo)).toBeUndefined();
        await device.zk.oprf('bio', typo);
      });
    }
    const back = await device.flow(2, async () => {
      const identity = await device.zk.identityOf(bio);
      const message = signInMessage(login.details.challenge, login.uid);
      const proof = await proveAt(device.send, identity, login.details.scope, message);
      return journey.finish(login, proof);
    });
    const tokens = await client.authorizationCodeGrant(site.config, back, login.checks);
    expect(tokens.claims()?.sub).toMatch(/.+/);
  }

  const screen = await device.send({ method: 'POST', url: '/sessions' });
  expect(screen.statusCode).toBe(200);
  expect(await device.verification(bio, screen.json<{ session: string }>().session)).toBe('Success');

  const erased = await device.flow(3, async () => {
    const bioRound = await device.zk.v3Oprf('bio', bio);
    const idRound = await device.zk.v3Oprf('id', id);
    const identity = { ...deriveRegistration(bioRound.output, idRound.output), outputBio: bioRound.output, outputId: idRound.output };
    const challenge = await device.zk.challenge();
    const { scopes } = (await device.send({ method: 'GET', url: '/erase/sign-in-scopes' })).json<{ scopes: string[] }>();
    const reply = await device.send({ method: 'POST', url: '/erase', payload: await v3ErasureBody(identity, challenge, scopes) });
    return reply.json<Record<string, string>>()[ERASURE_RESULT];
  });
  expect(erased).toBe('Success');

  expect(await device.registration(`${id}-NEW`, `${bio}, registered anew`)).toBe(false);
  return device;
}

const refusals = (device: Device) => device.replies.filter((reply) => reply.status === 429);

describe('a day of ordinary use from one address, at the default settings', () => {
  it("completes one person's day with no 429", async () => {
    const device = await dayOf('first');
    expect(refusals(device)).toEqual([]);
  }, 600_000);

  it('serves five people behind the same address, each doing that day within the same hour', async () => {
    // The first person's day above was the first of the five.
    for (const name of ['second', 'third', 'fourth', 'fifth']) {
      const device = await dayOf(name);
      expect(refusals(device), `${name}'s day`).toEqual([]);
    }
  }, 1_500_000);
});
