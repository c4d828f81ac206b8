import { useEffect, useState } from 'react';
import { CREDENTIAL_PREFIX } from '@zeroid/protocol/credential';

/** What the page says of a pasted credential: what it is, or why this server would refuse it. */
export interface CredentialNotice {
  /** "Credential from Example University, valid until 1 March 2027". */
  description?: string;
  /** Malformed, from an issuer this server does not trust, badly signed or expired. */
  problem?: string;
}

/**
 * Reads the ID field as the person pastes (decision 085): text with the credential prefix is checked
 * against GET /issuers on this device (the checks load only then), and the page names its issuer and
 * last day or says why it would be refused, before anything is proven or sent. A plain ID: nothing.
 */
export function useCredentialNotice(idInfo: string): CredentialNotice {
  const [notice, setNotice] = useState<CredentialNotice>({});
  useEffect(() => {
    if (!idInfo.trim().startsWith(CREDENTIAL_PREFIX)) {
      setNotice({});
      return;
    }
    let current = true;
    void import('./check-credential.ts').then(({ checkCredential, credentialProblem }) =>
      checkCredential(idInfo).then(
        (checked) => current && setNotice(checked ? { description: checked.description } : {}),
        (error: unknown) => current && setNotice({ problem: credentialProblem(error) }),
      ),
    );
    return () => {
      current = false;
    };
  }, [idInfo]);
  return notice;
}
