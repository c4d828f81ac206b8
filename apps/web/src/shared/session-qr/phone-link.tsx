import { CopyButton } from '../copy-button.tsx';
import { isLoopbackLink } from './is-loopback-link.ts';

/**
 * The link the QR code holds, as text: a phone without a camera app, or a person reading it out,
 * can open it too. When the link names this computer's loopback address (the default PUBLIC_URL), no
 * phone can reach it, and the screen says so and how to start the server so that one can.
 */
export function PhoneLink({ link }: { link: string }) {
  const url = new URL(link);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  // The port it runs on now, unless it is the default, so the restarted server is where the links point.
  const restart = `HOST=0.0.0.0 ${port === '8080' ? '' : `PORT=${port} `}PUBLIC_URL=http://<LAN IP>:${port} npm start`;
  return (
    <div className="phone-link">
      <p>Or open this link on your phone:</p>
      <p className="link-text">
        <a href={link} data-testid="session-link">
          {link}
        </a>
      </p>
      <CopyButton text={link} label="Copy link" />
      {isLoopbackLink(url) ? (
        <div className="notice" role="note" data-testid="loopback-note">
          <p>
            <strong>A phone cannot reach this link:</strong> {url.hostname} is this computer&apos;s own address.
          </p>
          <p>
            To verify with a phone on the same network, restart the server like this, with this computer&apos;s network address (and any
            other settings it runs with, such as DATA_DIR):
          </p>
          <pre>
            <code>{restart}</code>
          </pre>
        </div>
      ) : null}
    </div>
  );
}
