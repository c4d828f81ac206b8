/** How far a registration or verification has gone, for the progress line under the button. */
export type Progress =
  | { stage: 'starting' }
  | { stage: 'deriving' }
  | { stage: 'downloading'; loaded: number; total: number }
  | { stage: 'proving' }
  // A site asked which organisation vouches for the person's ID (decision 089).
  | { stage: 'finding-credential' }
  | { stage: 'proving-credential' }
  | { stage: 'sending' };
