import type { Progress } from './progress.ts';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function describe(progress: Progress | undefined): string {
  switch (progress?.stage) {
    case 'starting':
      return 'Starting the prover on this device…';
    case 'deriving':
      return 'Deriving your keys on this device…';
    case 'downloading':
      return `Downloading the prover, once for this device: ${mb(progress.loaded)} of ${mb(progress.total)}`;
    case 'proving':
      return 'Computing the zero-knowledge proof on this device…';
    case 'finding-credential':
      return 'Looking for the credential your ID was registered with…';
    case 'proving-credential':
      return 'Computing the proof of your credential on this device…';
    case 'sending':
      return 'Contacting the server…';
    case undefined:
      return 'Please wait…';
  }
}

/**
 * The pending state of a slow call: a spinner and what is happening now, announced politely; while
 * the prover downloads, one bar over all its bytes (circuit and proving key together). The spinner
 * and the sentence share a line at any width; the bar has its own.
 */
export function ProgressLine({ progress }: { progress: Progress | undefined }) {
  return (
    <p className="progress" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{describe(progress)}</span>
      {progress?.stage === 'downloading' && progress.total > 0 ? (
        <progress max={progress.total} value={progress.loaded} aria-label="Prover download" />
      ) : null}
    </p>
  );
}
