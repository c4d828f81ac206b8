/** What any circuit's setup is (`state` in its pins). */
export interface SetupState {
  phase1: 'public' | 'local';
  contributions: number;
  beacon: boolean;
  final: boolean;
}

/**
 * What the operator must hear at every start while a circuit's setup (v3's, the credential
 * registration's or the sign-in credential circuit's) is not final
 * (decision 072): undefined once phase 1 is a public ceremony's and phase 2 has two or more
 * contributions and a closing beacon. A setup whose every contribution one party made lets that
 * party forge registration proofs, so the log says exactly what is missing.
 */
export function setupWarning(state: SetupState, circuit = 'v3 registration circuit', forges = 'registration proofs'): string | undefined {
  if (state.final) return undefined;
  const missing = [
    ...(state.phase1 === 'local' ? ['phase 1 is a local one, not a public ceremony’s (npm run ceremony -- import-phase1)'] : []),
    ...(state.contributions < 2 ? [`phase 2 has ${state.contributions} contribution(s), fewer than two independent ones`] : []),
    ...(state.beacon ? [] : ['phase 2 is not closed with a public random beacon']),
  ];
  return (
    `The ${circuit}'s trusted setup is not final: ${missing.join('; ')}. ` +
    `Whoever made all of its contributions can forge ${forges}; see docs/deploy.md, "The trusted setup".`
  );
}
