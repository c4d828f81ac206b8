import type { Progress } from './progress.ts';

const kb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function describe(progress: Progress): string {
  switch (progress.stage) {
    case 'deriving':
      return 'Deriving your keys on this device…';
    case 'downloading':
      return progress.total > 0
        ? `Downloading the proving key: ${kb(progress.loaded)} of ${kb(progress.total)}…`
        : `Downloading the proving key: ${kb(progress.loaded)}…`;
    case 'proving':
      return 'Computing the zero-knowledge proof on this device…';
    case 'sending':
      return 'Contacting the server…';
  }
}

/** The pending state of a slow call: a spinner and what is happening now, announced politely. */
export function ProgressLine({ progress }: { progress: Progress | undefined }) {
  return (
    <p className="progress" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {progress ? describe(progress) : 'Working…'}
      {progress?.stage === 'downloading' && progress.total > 0 ? (
        <progress max={progress.total} value={progress.loaded} aria-label="Proving key download" />
      ) : null}
    </p>
  );
}
