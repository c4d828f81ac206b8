import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { normaliseInput, semaphoreHash, signInCredentialInput, signInMessage, signInScope } from '@zeroid/protocol';
import { LeanIMT } from '@zk-kit/lean-imt';
import { poseidon2 } from 'poseidon-lite/poseidon2';
import { poseidon4 } from 'poseidon-lite/poseidon4';
import {
  G,
  asciiField,
  blindQuery,
  deriveRegistration,
  didHash,
  evaluateBlinded,
  randomScalar,
  registrationProofInput,
  registrationPublicSignals,
  unblindEvaluation,
} from '@zeroid/protocol/v3';
import {
  credentialIdTag,
  credentialLeaf,
  credentialProofInput,
  credentialPublicSignals,
  dayOf,
  issueCredential,
  issuerPublicKey,
  issuerTree,
  parseIssuerKey,
  readCredential,
} from '@zeroid/protocol/credential';
import { assertChromium, CHROMIUM, CHROMIUM_ARGS } from '../../e2e/chromium.ts';
import { bundleForPage } from '../browser/bundle-for-page.ts';
import { resultsDir } from '../render.ts';
import { entry, median, type BenchEntry } from '../stats.ts';
import known from '../../packages/protocol/src/vectors/protocol-v3.json' with { type: 'json' };

const DEPTH = 20;
const BARE_PROVER = '/bare-prover.js';
const V3_PROVER = '/v3-prover.js';
const require = createRequire(import.meta.url);
const semaphoreArtifact = (name: string) => path.join(path.dirname(require.resolve('@zk-kit/semaphore-artifacts/package.json')), name);
const v3Artifact = (name: string) => path.join(import.meta.dirname, '..', '..', 'circuits', 'artifacts', name);

/**
 * One fresh single-key OPRF round for a biometric and an ID: both queries blinded, evaluated and
 * unblinded, the registration they derive, and the statement both circuits share.
 */
function singleKeyRound(run: number, idText: string) {
  const key = randomScalar();
  const groupKey = G.multiply(key);
  const bio = blindQuery('bio', normaliseInput(`bench biometric ${run}`));
  const id = blindQuery('id', idText);
  const bioEvaluated = evaluateBlinded(key, bio.blinded).evaluated;
  const idEvaluated = evaluateBlinded(key, id.blinded).evaluated;
  const outputId = unblindEvaluation(id, groupKey, idEvaluated).output;
  const registration = deriveRegistration(unblindEvaluation(bio, groupKey, bioEvaluated).output, outputId);
  const statement = {
    bioBlinded: bio.blinded,
    bioEvaluated,
    idBlinded: id.blinded,
    idEvaluated,
    groupKey,
    challenge: BigInt(run + 1),
    didHash: didHash(registration.didKey.did),
  };
  return { bio, id, outputId, registration, statement };
}

/** A fresh single-key registration round: the prover's input and the public signals it must produce. */
function registrationRound(run: number) {
  const { bio, id, registration, statement } = singleKeyRound(run, normaliseInput(`bench ID ${run}`));
  return {
    input: registrationProofInput(bio, id, statement),
    expected: registrationPublicSignals(registration.commitment, registration.idTagField, statement),
  };
}

/** The credential issued once (zk-kit's signing is slow) and the trusted issuers' tree it is proven in. */
let issued: { line: string; tree: ReturnType<typeof issuerTree> } | undefined;

/** A fresh single-key registration round whose ID is a credential (decision 085): the prover's input and its public signals. */
function credentialRound(run: number) {
  const issuerKeys = [new Uint8Array(32).fill(7), new Uint8Array(32).fill(8)];
  issued ??= {
    line: issueCredential(issuerKeys[1]!, 'bench credential ID', { expires: '2099-12-31' }),
    tree: issuerTree(issuerKeys.map((key) => parseIssuerKey(issuerPublicKey(key))!)),
  };
  const credential = readCredential(issued.line);
  const round = singleKeyRound(run, credential.id);
  const statement = { ...round.statement, today: dayOf(new Date()), issuersRoot: issued.tree.root };
  return {
    input: credentialProofInput(round.bio, round.id, credential, issued.tree.pathOf(1), statement),
    expected: credentialPublicSignals(
      round.registration.commitment,
      BigInt(`0x${credentialIdTag(credential.issuer, round.outputId)}`),
      credentialLeaf(credential.issuerKey, round.registration.secretScalar),
      statement,
    ),
  };
}

/**
 * A credential sign-in proof (decision 087) for a fresh secret whose credential leaf is the last of a
 * LeanIMT of 1,024 leaves: the prover's input, and the root and nullifier it must output (the
 * nullifier Poseidon(hash(scope), secret), Semaphore's).
 */
function signInCredentialRound(run: number) {
  const issuer = issuerPublicKey(new Uint8Array(32).fill(7));
  const { x, y } = parseIssuerKey(issuer)!;
  const secret = BigInt(run + 2) ** 40n;
  const leaf = poseidon4([asciiField('zeroid/credential-leaf/v1'), x, y, secret]);
  const tree = new LeanIMT<bigint>((a, b) => poseidon2([a, b]), [...Array.from({ length: 1023 }, (_, i) => BigInt(i + 1)), leaf]);
  const path = tree.generateProof(1023);
  const [scope, message] = [signInScope('bench-site'), signInMessage(String(run + 1), 'bench-interaction')];
  return {
    input: signInCredentialInput({ secret, issuerPublicKey: issuer, proofIndex: path.index, siblings: path.siblings, scope, message }),
    expected: [tree.root.toString(), poseidon2([semaphoreHash(scope), secret]).toString()],
  };
}

/** What each circuit's run measures: its prover's bundle, its rounds, its entry and goal, and the file its samples go to. */
const CIRCUITS = {
  'registration-v3': {
    round: registrationRound,
    prover: 'registration-prover-v3.ts',
    entry: 'browser.registration_proof',
    goal: 1.5,
    decision: '040',
    results: 'registration-proof-v3.json',
  },
  'registration-credential': {
    round: credentialRound,
    prover: 'registration-prover-credential.ts',
    entry: 'browser.credential_registration_proof',
    goal: 2,
    decision: '085',
    results: 'registration-credential-proof.json',
  },
  'sign-in-credential': {
    round: signInCredentialRound,
    prover: 'sign-in-credential-prover.ts',
    entry: 'browser.sign_in_credential_proof',
    goal: 1.5,
    decision: '087',
    results: 'sign-in-credential-proof.json',
  },
} as const;

/**
 * The proving goal of decision 040, `browser.registration_proof`: the v3 registration proof in Chromium at most
 * 1.5 times a bare depth-20 Semaphore `generateProof` in the same run. No server: both provers are
 * bundled into one page with their artifacts in memory (the registration circuit's from
 * circuits/artifacts, Semaphore's from @zk-kit/semaphore-artifacts), warm up once, then take turns for
 * `runs` rounds, so a slow spell of this shared machine weighs on both. Every registration proof's
 * public signals are checked against the TypeScript derivation of a fresh single-key round. The
 * samples also go to bench/results/registration-proof-v3.json (`npm run bench -- registration`).
 * With `circuit: 'registration-credential'`, the same for the credential registration proof
 * (decision 085, goal ≤ 2×; `npm run bench -- credential`, bench/results/registration-credential-proof.json).
 * With `circuit: 'sign-in-credential'`, the credential sign-in proof through `proveSignInCredential`
 * (decision 087, goal ≤ 1.5×; `npm run bench -- sign-in-credential`).
 */
export async function runRegistrationProof({
  runs,
  circuit = 'registration-v3',
}: {
  runs: number;
  circuit?: keyof typeof CIRCUITS;
}): Promise<BenchEntry[]> {
  const measured = CIRCUITS[circuit];
  assertChromium();
  const scratch = () => mkdtempSync(path.join(tmpdir(), 'zeroid-v3-proof-'));
  const bareProver = await bundleForPage(path.join(import.meta.dirname, '..', 'browser', 'bare-prover.ts'), scratch());
  const v3Prover = await bundleForPage(path.join(import.meta.dirname, '..', 'browser', measured.prover), scratch());
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const samples = { semaphore: [] as number[], registration: [] as number[] };
  let clientMs: number | undefined;
  try {
    const page = await browser.newPage();
    const origin = 'http://registration-v3-proof.test';
    await page.route(`${origin}/**`, async (route) => {
      const { pathname } = new URL(route.request().url());
      const js = (body: string) => route.fulfill({ contentType: 'text/javascript', body });
      const bytes = (file: string) => route.fulfill({ contentType: 'application/octet-stream', body: readFileSync(file) });
      if (pathname === BARE_PROVER) return js(bareProver);
      if (pathname === V3_PROVER) return js(v3Prover);
      if (pathname.startsWith('/artifacts/')) return bytes(semaphoreArtifact(path.basename(pathname)));
      if (pathname.startsWith('/v3/')) return bytes(v3Artifact(path.basename(pathname)));
      return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>registration v3 proof</title>' });
    });
    await page.goto(`${origin}/`);
    type Bare = { setup(depth: number, members: number): Promise<void>; prove(run: number): Promise<number> };
    type V3 = {
      setup(): Promise<void>;
      prove(input: unknown): Promise<{ ms: number; publicSignals: string[] }>;
      knownAnswer(vector: unknown, groupKey: unknown): Promise<{ ms: number; commitment: string; idTag: string; did: string }>;
    };
    // The module URLs go in as arguments: the page resolves them, not the TypeScript compiler.
    await page.evaluate(async ([url, d]) => ((await import(url)) as Bare).setup(d, 2), [BARE_PROVER, DEPTH] as const);
    await page.evaluate(async (url) => ((await import(url)) as V3).setup(), V3_PROVER);
    // Protocol v3 runs from the browser bundle and agrees with the checked-in known answer.
    const vector = known.vectors[0]!;
    const inPage = await page.evaluate(async ([url, v, k]) => ((await import(url)) as V3).knownAnswer(v, k), [
      V3_PROVER,
      vector,
      known.groupKey,
    ] as const);
    if (inPage.commitment !== vector.commitment || inPage.idTag !== vector.idTag || inPage.did !== vector.did)
      throw new Error('Protocol v3 in Chromium disagrees with the known answer');
    clientMs = inPage.ms;
    const bare = (run: number) => page.evaluate(async ([url, r]) => ((await import(url)) as Bare).prove(r), [BARE_PROVER, run] as const);
    const registration = async (run: number) => {
      const { input, expected } = measured.round(run);
      const { ms, publicSignals } = await page.evaluate(async ([url, i]) => ((await import(url)) as V3).prove(i), [
        V3_PROVER,
        input,
      ] as const);
      if (JSON.stringify(publicSignals) !== JSON.stringify(expected))
        throw new Error('The registration proof did not output the derived commitment and ID tag');
      return ms;
    };
    await bare(-1);
    await registration(-1);
    for (let run = 0; run < runs; run++) {
      samples.semaphore.push(await bare(run));
      samples.registration.push(await registration(run));
      console.error(
        `round ${run + 1}/${runs}: semaphore-${DEPTH} ${samples.semaphore.at(-1)!.toFixed(0)} ms, ${circuit} ${samples.registration.at(-1)!.toFixed(0)} ms`,
      );
    }
  } finally {
    await browser.close();
  }
  const ratios = samples.registration.map((ms, i) => ms / samples.semaphore[i]!);
  const result = {
    date: new Date().toISOString(),
    runs,
    chromium: CHROMIUM,
    semaphoreDepth: DEPTH,
    semaphoreMs: samples.semaphore,
    registrationMs: samples.registration,
    semaphoreMedianMs: median(samples.semaphore),
    registrationMedianMs: median(samples.registration),
    ratioOfMedians: median(samples.registration) / median(samples.semaphore),
    medianOfRoundRatios: median(ratios),
    circuit,
    goal: measured.goal,
    /** The page's v3 client work for one registration (two blinds, two unblinds, the derivations), first call. */
    clientDerivationMs: clientMs,
  };
  writeFileSync(path.join(resultsDir, measured.results), `${JSON.stringify(result, null, 2)}\n`);
  console.error(
    `Chromium, medians of ${runs}: semaphore-${DEPTH} ${result.semaphoreMedianMs.toFixed(0)} ms, ${circuit} ${result.registrationMedianMs.toFixed(0)} ms; ` +
      `ratio ${result.ratioOfMedians.toFixed(2)} (median of round ratios ${result.medianOfRoundRatios.toFixed(2)}; goal ≤ ${measured.goal})`,
  );
  return [
    entry(
      measured.entry,
      'ms',
      'lower',
      samples.registration,
      samples.semaphore,
      `bare \`generateProof\` at depth ${DEPTH} in the same page, artifacts in memory, taking turns (goal ≤ ${measured.goal}×, decision ${measured.decision})`,
    ),
  ];
}
