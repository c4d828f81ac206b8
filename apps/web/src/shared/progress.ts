/** How far a registration or verification has gone, for the progress line under the button. */
export type Progress =
  | { stage: 'starting' }
  | { stage: 'deriving' }
  | { stage: 'downloading'; loaded: number; total: number }
  | { stage: 'proving' }
  | { stage: 'sending' };
