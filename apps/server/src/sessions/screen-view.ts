import type { SessionState } from './session-watcher.ts';

/**
 * The screen's view of a session. A phone's success is the screen's only once its person has typed
 * the phone's code (decision 035): until then it reads 'awaiting-code', so a screen (ours or another
 * integration's) that moves on at 'success' cannot be swapped by a stranger's phone (decision 047).
 */
export const screenView = (s: SessionState) => ({
  session: s.id,
  status: s.status === 'success' && s.confirmed !== true ? ('awaiting-code' as const) : s.status,
  expiresAt: s.expiresAt.toISOString(),
  ...(s.phoneOpened && s.status === 'pending' ? { phoneConnected: true as const } : {}),
});
