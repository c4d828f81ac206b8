/**
 * A site that asks for `credential` (decision 089): said before anything is typed, so the person
 * knows what the site will learn if they go on, with a box, ticked because the site asked, that the
 * person unticks to sign in without telling it. Cancel stays open. The box cannot change while a proof
 * is on its way (`disabled`), and keeps its state across tries. Shown by the sign-in screen and by the
 * phone's sign-in.
 */
export function CredentialRequest({
  site,
  share,
  onShare,
  disabled,
}: {
  site: string;
  share: boolean;
  onShare: (share: boolean) => void;
  disabled: boolean;
}) {
  return (
    <div className="notice" data-testid="sign-in-credential">
      <p>
        <strong>{site}</strong> asks which organisation vouches for your ID. If you registered with a credential from an organisation ZeroID
        trusts and leave the box below ticked, this device proves it and {site} learns that organisation&apos;s name; otherwise it is told
        nothing of a credential. You sign in with the same pseudonym either way.
      </p>
      <label className="choice">
        <input type="checkbox" checked={share} disabled={disabled} onChange={(event) => onShare(event.target.checked)} />
        Tell {site} which organisation vouches for my ID
      </label>
    </div>
  );
}
