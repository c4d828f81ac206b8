/**
 * A site that asks for `credential` (decision 089): said before anything is typed, so the person
 * knows what the site will learn if they go on. Cancel stays open. Shown by the sign-in screen and by
 * the phone's sign-in.
 */
export function CredentialRequest({ site }: { site: string }) {
  return (
    <p className="notice" data-testid="sign-in-credential">
      <strong>{site}</strong> asks which organisation vouches for your ID. If you registered with a credential from an organisation ZeroID
      trusts, this device proves it and {site} learns that organisation&apos;s name; otherwise it is told nothing of a credential.
    </p>
  );
}
