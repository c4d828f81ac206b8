import { proveSignInCredential, signInCredentialInput, signInMessage } from '@zeroid/protocol';
import type { Progress } from '../../shared/progress.ts';
import { proveMembership } from '../../prover/prove-membership.ts';
import { locateCredential } from '../../prover/locate-credential.ts';
import { signInCredentialArtifacts } from '../../prover/artifact-cache.ts';
import { downloadProgress } from '../../prover/download-progress.ts';
import { timelineMark } from '../../shared/timeline-mark.ts';
import type { SignInProofs, SignInRequest } from '../../prover/messages.ts';

/**
 * Sign in with ZeroID (decision 023): a membership proof (`proveMembership`) with the scope of the
 * site's sector and a message that binds the server's one-time challenge to this sign-in, so the
 * proof's nullifier is the person's pseudonym at that site. Undefined when the biometric is not
 * registered (not in its bucket): nothing is proven and the site hears access_denied.
 *
 * A site that asks for `credential` (decision 089) also gets, when the identity was registered with a
 * credential, a second proof: the identity's credential leaf is in the credential tree, for an issuer
 * it names, with the same scope and message, so its nullifier equals the first proof's, which ties
 * the two to one person without revealing the leaf. The secret never leaves this worker.
 *
 * A person who unticks the screen's box declines: nothing of the credential is looked for (no GET
 * /issuers, no credential-tree bucket) or proven, and the sign-in goes on as if the site had not asked.
 */
export async function proveSignIn(input: SignInRequest, progress: (p: Progress) => void): Promise<SignInProofs | undefined> {
  const binding = { message: signInMessage(input.challenge, input.uid), scope: input.scope };
  const membership = await proveMembership(input.bioInfo, () => Promise.resolve(binding), progress);
  if (!membership) return undefined;
  const { proof, secret, commitment } = membership;
  if (!input.asksCredential) return { proof, credential: 'not-asked' };
  if (!input.shareCredential) return { proof, credential: 'declined' };

  progress({ stage: 'finding-credential' });
  const located = await locateCredential(secret, commitment);
  if (!located) return { proof, credential: 'none' };
  // Prepared as the screen opened, the download may be done or half done: the bar shows what is left.
  const artifacts = await signInCredentialArtifacts(downloadProgress(progress));
  progress({ stage: 'proving-credential' });
  timelineMark('credential-proof-started');
  const credentialProof = await proveSignInCredential(
    signInCredentialInput({
      secret,
      issuerPublicKey: located.issuerPublicKey,
      proofIndex: located.member.proofIndex,
      siblings: located.member.siblings,
      scope: binding.scope,
      message: binding.message,
    }),
    artifacts,
  );
  timelineMark('credential-proof-done');
  return { proof, credential: 'shared', credentialProof, issuerName: located.issuerName };
}
