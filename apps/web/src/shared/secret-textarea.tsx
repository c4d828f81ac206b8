import type { TextareaHTMLAttributes } from 'react';

type SecretTextareaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'onChange' | 'autoComplete' | 'spellCheck'> & {
  value: string;
  onValue: (value: string) => void;
};

/**
 * A multi-line input for ID or biometric text. Never autocompleted or spell-checked: the browser
 * would keep what was typed, or send it to a spelling service, and raw values never leave the page.
 */
export function SecretTextarea({ value, onValue, ...attributes }: SecretTextareaProps) {
  return <textarea {...attributes} value={value} onChange={(e) => onValue(e.target.value)} autoComplete="off" spellCheck={false} />;
}
