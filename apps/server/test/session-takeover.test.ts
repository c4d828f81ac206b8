import { CONFIRMATION_CODE, signInMessage, VERIFICATION_RESULT } from '@zeroid/protocol';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Artifacts } from '../src/proofs/artifacts.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { addPublicClient, discoverSite, signInJourney, type Login, type SignInJourney } from './sign-in-journey.ts';
import { viaHttp, ZkTestClient } from './zk-client.ts';
import { postJson } from './support/post.ts';
import { removeTempDirs, tempDir } from './support/temp-dir.ts';
import { terminateCurve } from './support/terminate-curve.ts';

/**
 * The session swap of decision 035, run as the attack review ran it: the victim's screen shows
 * a QR code; the attacker, who saw it, completes the session with their own identity, from their
 * phone or with a raw /verify. Before, the victim's screen moved on by itself and the site signed the
 * victim's browser in as the attacker. Now the screen moves on only once its person types the code
 * the completing phone shows: the attacker's code is on the attacker's phone. One real server
 * process on SQLite, a real site client (openid-client), real proofs.
 */
const REDIRECT = 'http://localhost:3011/callback';
const VICTIM = { id: 'TAKEOVER-VICTIM', bio: 'takeover: the victim thumb' };
const ATTACKER = { id: 'TAKEOVER-ATTACKER', bio: 'takeover: the attacker thumb' };

let dataDir: string;
let server: ServerProcess;
let artifacts: Artifacts;
let site: client.Configuration;
let journey: SignInJourney;

/** Every other six-digit code than `code`, in turn: what a person who never saw it might type. */
const notThe = (code: string) => (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');

beforeAll(async () => {
  dataDir = tempDir('zeroid-takeover-');
  server = await startServerProcess({ DATA_DIR: dataDir });
  artifacts = await Artifacts.load();
  journey = signInJourney(server.url, artifacts);
  await addPublicClient({ dataDir }, 'takeover-site', REDIRECT);
  site = await discoverSite(server.url, 'takeover-site');
  const zk = new ZkTestClient(viaHttp(server.url), artifacts);
  for (const person of [VICTIM, ATTACKER])
    expect((await zk.register(person.id, person.bio)).json()).toMatchObject({ 'DID already generated': false });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  removeTempDirs();
  await terminateCurve();
});

describe('a phone the person at the screen does not hold', () => {
  it("cannot complete the victim's plain verification with the attacker's raw /verify; the victim's own phone can", async () => {
    // The victim's screen (/generate-qr) creates the session and keeps its secret.
    const screen = await postJson(server, '/sessions', {});
    const { session, secret } = screen.body as { session: string; secret: string };
    // The attacker saw the QR code: a raw /verify with their own biometric and the victim's session.
    const attack = await postJson(server, '/verify', { bio_info: ATTACKER.bio, session });
    expect(attack.body).toEqual({ [VERIFICATION_RESULT]: 'Success', [CONFIRMATION_CODE]: expect.stringMatching(/^[0-9]{6}$/) });
    const attackerCode = attack.body[CONFIRMATION_CODE] as string;
    // The screen sees a completed session, but moves on only with the code, which is on the attacker's phone.
    const status = await fetch(`${server.url}/sessions/${session}`, { headers: { 'session-secret': secret } });
    expect(await status.json()).toMatchObject({ status: 'awaiting-code' });
    // The attacker cannot type it on the victim's screen: that needs the screen's secret.
    expect((await postJson(server, `/sessions/${session}/confirm`, { code: attackerCode })).status).toBe(403);
    // The victim types what they do not have: four wrong codes are refused, the fifth fails the session.
    const typed = [];
    for (let i = 0; i < 5; i++) {
      const reply = await postJson(server, `/sessions/${session}/confirm`, { code: notThe(attackerCode)(i) }, { 'session-secret': secret });
      typed.push(`${reply.status} ${reply.body.error?.code ?? `confirmed=${String(reply.body.confirmed)}`}`);
    }
    expect(typed).toEqual([...Array(4).fill('400 CONFIRMATION_CODE_WRONG'), '200 confirmed=false']);
    expect(await postJson(server, `/sessions/${session}/confirm`, { code: attackerCode }, { 'session-secret': secret })).toMatchObject({
      status: 409,
    });
    const failed = await fetch(`${server.url}/sessions/${session}`, { headers: { 'session-secret': secret } });
    expect(await failed.json()).toMatchObject({ status: 'failure' });

    // The honest journey: the victim's own phone proves, shows its code, and the victim types it.
    const honest = (await postJson(server, '/sessions', {})).body as { session: string; secret: string };
    const zk = new ZkTestClient(viaHttp(server.url), artifacts);
    const proof = await zk.prove(VICTIM.bio, undefined, honest.session);
    const phone = await postJson(server, '/verify', { proof, session: honest.session });
    expect(phone.body[VERIFICATION_RESULT]).toBe('Success');
    const confirmed = await postJson(
      server,
      `/sessions/${honest.session}/confirm`,
      { code: phone.body[CONFIRMATION_CODE] as string },
      {
        'session-secret': honest.secret,
      },
    );
    expect(confirmed.body).toEqual({ session: honest.session, confirmed: true, attemptsLeft: 4 });
  }, 60_000);

  it("cannot sign the victim's browser in as the attacker: a sign-in completed by the attacker's phone ends in access_denied", async () => {
    /** The victim's sign-in screen offers "Verify on my phone instead": a session tied to its authorization request. */
    const onPhone = async (login: Login) => {
      const created = await login.browser.fetch(`${server.url}/signin/${login.uid}/sessions`, { method: 'POST' });
      const { session, secret } = (await created.json()) as { session: string; secret: string };
      const finish = async (code?: string) =>
        login.browser.fetch(`${server.url}/signin/${login.uid}/sessions/${session}/finish`, {
          method: 'POST',
          headers: { 'session-secret': secret },
          body: code === undefined ? {} : { code },
        });
      return { session, finish };
    };
    /** A phone proves for the session with `bio`: the reply it gets (and so the code it shows). */
    const phoneProves = async (session: string, bio: string) => {
      const details = (await (await fetch(`${server.url}/sessions/${session}/sign-in`)).json()) as {
        scope: string;
        challenge: string;
        uid: string;
      };
      const proof = await journey.prove(bio, details.scope, signInMessage(details.challenge, details.uid));
      return (await postJson(server, `/sessions/${session}/sign-in`, { proof, challenge: details.challenge })).body as {
        result: string;
        confirmationCode: string;
      };
    };
    /** Where the victim's browser ends: the site's openid-client either gets tokens or throws. */
    const atSite = async (login: Login, reply: Response) => {
      const { redirectTo } = (await reply.json()) as { redirectTo: string };
      const back = new URL((await login.browser.fetch(redirectTo)).headers.get('location')!);
      return client.authorizationCodeGrant(site, back, login.checks).then(
        (tokens) => tokens.claims()!.sub,
        (error: { error?: string }) => error.error,
      );
    };

    const victim = await journey.startLogin(site, REDIRECT);
    const screen = await onPhone(victim);
    // The attacker photographs the QR code, opens it on their phone and proves with their own identity.
    const attacker = await phoneProves(screen.session, ATTACKER.bio);
    expect(attacker).toMatchObject({ result: 'Success', confirmationCode: expect.stringMatching(/^[0-9]{6}$/) });
    // A raw /verify cannot complete a sign-in's session at all.
    expect((await postJson(server, '/verify', { bio_info: ATTACKER.bio, session: screen.session })).body).toEqual({
      [VERIFICATION_RESULT]: 'Failure',
    });
    // The victim's screen does not finish by itself, and not with codes its person never saw.
    expect((await (await screen.finish()).json()) as object).toMatchObject({ error: { code: 'CONFIRMATION_CODE_REQUIRED' } });
    for (let i = 0; i < 4; i++) {
      expect(await (await screen.finish(notThe(attacker.confirmationCode)(i))).json()).toMatchObject({
        error: { code: 'CONFIRMATION_CODE_WRONG' },
      });
    }
    expect(await atSite(victim, await screen.finish(notThe(attacker.confirmationCode)(4)))).toBe('access_denied');

    // The relay, the other way round: the attacker's screen, the victim's phone. The victim proves on
    // their phone, which shows the code; without it the attacker's screen gets access_denied, never
    // the victim's pseudonym.
    const relayed = await journey.startLogin(site, REDIRECT);
    const attackersScreen = await onPhone(relayed);
    const victimsPhone = await phoneProves(attackersScreen.session, VICTIM.bio);
    expect(victimsPhone.result).toBe('Success');
    // Nor by guessing at once (decision 047): forty codes in one burst, the right one last, get five
    // checked between them (four refused with tries left, the fifth fails the session); the right one
    // is refused unchecked, and the site hears access_denied, whichever answer the browser follows.
    const right = victimsPhone.confirmationCode;
    const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => attackersScreen.finish(i === 39 ? right : notThe(right)(i))));
    const answers = await Promise.all(burst.map(async (reply) => ({ status: reply.status, body: await reply.text() })));
    expect(answers.filter((answer) => answer.body.includes('CONFIRMATION_CODE_WRONG'))).toHaveLength(4);
    expect(answers[39]!.status === 404 || answers[39]!.status === 200).toBe(true);
    const followed = answers[39]!.status === 200 ? answers[39]! : answers.find((answer) => answer.status === 200)!;
    expect(await atSite(relayed, new Response(followed.body))).toBe('access_denied');

    // The honest journey: the victim's own phone, whose code the victim types on their screen.
    const honest = await journey.startLogin(site, REDIRECT);
    const own = await onPhone(honest);
    const code = (await phoneProves(own.session, VICTIM.bio)).confirmationCode;
    expect(await atSite(honest, await own.finish(code))).toMatch(/^[A-Za-z0-9_-]{43}$/);
  }, 90_000);
});
