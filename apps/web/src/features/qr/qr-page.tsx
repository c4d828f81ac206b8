import { useSearchParams } from 'react-router';
import { MESSAGES } from '@zeroid/protocol/messages';
import { DidQrCode } from './did-qr-code.tsx';
import { SessionQrCode } from '../../shared/session-qr/session-qr-code.tsx';

/**
 * /generate-qr: by default a one-time cross-device verification (a phone scans the code and
 * verifies; this screen follows the outcome); with ?did=…, the person's DID as a QR code.
 */
export function QrPage() {
  const [params] = useSearchParams();
  const did = params.get('did');
  return (
    <section className="card">
      <h1>{MESSAGES.qrTitle}</h1>
      {did ? <DidQrCode did={did} /> : <SessionQrCode />}
    </section>
  );
}
