import { existsSync, rmSync } from 'node:fs';
import { setupFiles, type SetupLayout } from './setup-files.ts';
import type { Logger } from './snarkjs-setup.ts';
import { readTranscript, writeTranscript } from './transcript.ts';

/**
 * Another circuit's setup on the main circuit's phase 1 (one phase1.ptau for every circuit, decision
 * 085): its transcript takes the main transcript's phase-1 entries, and keeps its own phase 2 only if
 * its phase 1 was already exactly that one; otherwise its proving key is removed, since a phase 2 made
 * on another phase 1 is no phase 2 of this one.
 */
export function shareMainPhase1(mainLayout: SetupLayout, layout: SetupLayout, log?: Logger): void {
  if (setupFiles(mainLayout).phase1 !== setupFiles(layout).phase1) throw new Error('The circuits do not share one phase1.ptau');
  const phase1 = readTranscript(mainLayout.transcript).filter((e) => e.phase === 1);
  const own = readTranscript(layout.transcript);
  const samePhase1 = JSON.stringify(own.filter((e) => e.phase === 1)) === JSON.stringify(phase1);
  const phase2 = samePhase1 ? own.filter((e) => e.phase === 2) : [];
  writeTranscript(layout.transcript, [...phase1, ...phase2]);
  const { zkey, vkey } = setupFiles(layout);
  if (!samePhase1 && existsSync(zkey)) {
    rmSync(zkey);
    rmSync(vkey, { force: true });
    log?.warn(`${setupFiles(layout).name}: phase 2 was made on another phase 1; run \`setup\` for it and collect its contributions again.`);
  }
}
