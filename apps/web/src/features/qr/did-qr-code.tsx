import { useEffect, useState } from 'react';
import { ErrorAlert } from '../../shared/error-alert.tsx';

/** The DID as a QR code, drawn in the browser: the DID never needs to go anywhere to be shown. */
export function DidQrCode({ did }: { did: string }) {
  const [src, setSrc] = useState<string>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let live = true;
    import('qrcode')
      .then((qr) => qr.toDataURL(did, { margin: 2, width: 320 }))
      .then(
        (url) => live && setSrc(url),
        () => live && setError('Could not draw the QR code.'),
      );
    return () => {
      live = false;
    };
  }, [did]);
  return (
    <>
      <p className="did">
        <code>{did}</code>
      </p>
      {src ? <img className="qr" src={src} width={320} height={320} alt="QR code of your DID" /> : null}
      <ErrorAlert message={error} />
    </>
  );
}
