import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOprfKeyPair } from '@zeroid/protocol';
import { usePostgres } from '../../test/support/use-postgres.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { ZkTestClient } from '../../test/zk-client.ts';
import { Artifacts } from '../proofs/artifacts.ts';
import { injectPost } from '../../test/support/post.ts';
import { terminateCurve } from '../../test/support/terminate-curve.ts';

/**
 * The same API on a real PostgreSQL, with two app instances sharing the database and the OPRF key,
 * as two server processes behind a load balancer would.
 */
const postgres = usePostgres();
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  const { privateKey } = await generateOprfKeyPair();
  a = await startTestApp({ databaseUrl: postgres.url, oprfPrivateKey: privateKey });
  b = await startTestApp({ databaseUrl: postgres.url, oprfPrivateKey: privateKey });
});

afterAll(async () => {
  await a?.destroy();
  await b?.destroy();
  await terminateCurve();
});

describe('the API on PostgreSQL', () => {
  it('registers on one instance and verifies on the other, with the raw bodies', async () => {
    expect((await injectPost(a, '/register', { id_info: 'PG-1', bio_info: 'pg biometric one' })).json()).toMatchObject({
      'DID already generated': false,
    });
    expect((await injectPost(b, '/register', { id_info: 'PG-1', bio_info: 'pg biometric one' })).json()).toEqual({
      'DID already generated': true,
    });
    expect((await injectPost(b, '/verify', { bio_info: 'pg biometric one' })).json()).toEqual({ 'Verification Result': 'Success' });
    expect((await injectPost(b, '/verify', { bio_info: 'pg biometric two' })).json()).toEqual({ 'Verification Result': 'Failure' });
  });

  it('gives exactly one "false" among 50 concurrent identical registrations spread over both', async () => {
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) => injectPost(i % 2 ? a : b, '/register', { id_info: 'PG-RACE', bio_info: 'pg race biometric' })),
    );
    expect(replies.filter((r) => r.json()['DID already generated'] === false)).toHaveLength(1);
  });

  it('registers with a proof of possession on one instance and proves membership on the other', async () => {
    const artifacts = await Artifacts.load();
    const onA = new ZkTestClient(a.app, artifacts);
    const onB = new ZkTestClient(b.app, artifacts);
    expect((await onA.register('PG-ZK', 'pg zero knowledge biometric')).json()).toMatchObject({ 'DID already generated': false });
    const proof = await onB.prove('pg zero knowledge biometric');
    expect(proof).toBeDefined();
    expect((await onA.verify(proof!)).json()).toEqual({ 'Verification Result': 'Success' });
    expect((await onB.verify(proof!)).json()).toEqual({ 'Verification Result': 'Failure' });
  });

  it('keeps both trees equal to the tree of the table', async () => {
    await a.registry.catchUp();
    await b.registry.catchUp();
    expect(a.registry.size).toBe(await a.storage.identities.count());
    expect(b.registry.root).toBe(a.registry.root);
    const fresh = await startTestApp({ databaseUrl: postgres.url });
    expect(fresh.registry.root).toBe(a.registry.root);
    await fresh.close();
  });
});
