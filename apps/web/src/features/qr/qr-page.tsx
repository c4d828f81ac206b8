import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { MESSAGES } from '@zeroid/protocol/messages';
import { fetchQrCode } from '../../shared/api-client.ts';
import { ErrorAlert } from '../../shared/error-alert.tsx';

/**
 * The verification link as a QR code, fetched from the server as binary and shown as a data URL;
 * or, with ?did=…, the person's DID, drawn here in the browser.
 */
export function QrPage() {
  const [params] = useSearchParams();
  const did = params.get('did');
  const [src, setSrc] = useState<string>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    let live = true;
    setSrc(undefined);
    setError(undefined);
    const load = did ? import('qrcode').then((qr) => qr.toDataURL(did, { margin: 2, width: 320 })) : fetchQrCode();
    load.then(
      (url) => live && setSrc(url),
      (failure: unknown) => live && setError(failure instanceof Error ? failure.message : 'Could not load the QR code.'),
    );
    return () => {
      live = false;
    };
  }, [did]);

  return (
    <section className="card">
      <h1>{MESSAGES.qrTitle}</h1>
      {did ? (
        <p className="did">
          <code>{did}</code>
        </p>
      ) : (
        <p>Scan to open the verification page on another device.</p>
      )}
      {src ? (
        <img className="qr" src={src} width={320} height={320} alt={did ? 'QR code of your DID' : 'QR code for the verification link'} />
      ) : error ? null : (
        <p className="progress" role="status">
          <span className="spinner" aria-hidden="true" />
          Loading the QR code…
        </p>
      )}
      <ErrorAlert message={error} />
    </section>
  );
}
