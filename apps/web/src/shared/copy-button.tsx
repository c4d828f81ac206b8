import { useEffect, useState } from 'react';

/**
 * Copies `text` to the clipboard, and says so for a few seconds (politely, to screen readers too).
 * Where the clipboard is refused, it says how to copy by hand.
 */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 4000);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <span className="copy">
      <button
        type="button"
        className="secondary small"
        onClick={() =>
          // No clipboard outside a secure context: that is a failure too, not an exception.
          void Promise.resolve()
            .then(() => navigator.clipboard.writeText(text))
            .then(
              () => setState('copied'),
              () => setState('failed'),
            )
        }
      >
        {label}
      </button>
      <span role="status" className="copy-status">
        {state === 'copied' ? 'Copied.' : state === 'failed' ? 'Could not copy: select the text and copy it.' : ''}
      </span>
    </span>
  );
}
