import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import { normaliseInput } from '@zeroid/protocol';
import { babyJubjubSuite, deriveRegistration } from '@zeroid/protocol/v3';
import { Resolver } from 'did-resolver';
import { getResolver } from 'key-did-resolver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

/** P6: a registered DID resolves, with a standard did:key resolver, to the key its holder signs with. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.destroy();
});

describe('DID resolution (P6)', () => {
  it('resolves to the key the holder can sign with, with a standard resolver and with GET /did/:did', async () => {
    const bio = 'resolvable biometric sample 77';
    const reply = await t.app.inject({ method: 'POST', url: '/register', payload: { id_info: 'DID-RES-1', bio_info: bio } });
    const did = reply.json<{ DID: string }>().DID;

    // The holder's side: the same derivation the browser runs (protocol v3, decision 056).
    const outputBio = await babyJubjubSuite.evaluate(t.services.oprfV3!.privateKey, 'bio', normaliseInput(bio));
    const holder = deriveRegistration(BigInt(`0x${Buffer.from(outputBio).toString('hex')}`), 0n).didKey;
    expect(holder.did).toBe(did);

    const resolved = await new Resolver(getResolver()).resolve(did);
    expect(resolved.didResolutionMetadata.error).toBeUndefined();
    const method = resolved.didDocument?.verificationMethod?.[0] as { publicKeyBase58?: string; publicKeyMultibase?: string } | undefined;
    const resolvedKey = method?.publicKeyBase58
      ? base58.decode(method.publicKeyBase58)
      : base58.decode(method!.publicKeyMultibase!.slice(1)).slice(2);
    expect(Buffer.from(resolvedKey).toString('hex')).toBe(Buffer.from(holder.publicKey).toString('hex'));

    const message = new TextEncoder().encode('proof of control');
    expect(ed25519.verify(ed25519.sign(message, holder.secretKey), message, resolvedKey)).toBe(true);

    const ours = (await t.app.inject({ method: 'GET', url: `/did/${did}` })).json<{
      verificationMethod: Array<{ publicKeyMultibase: string }>;
    }>();
    expect(ours.verificationMethod[0]!.publicKeyMultibase).toBe(did.slice('did:key:'.length));
    expect(resolved.didDocument?.id).toBe(did);
  });
});
