import { describe, expect, it } from 'vitest';
import { createSessionStreamCaps, type StreamPlace } from './session-stream-caps.ts';

const placed = (place: StreamPlace | { refused: string }): StreamPlace => {
  if ('refused' in place) throw new Error(`refused: ${place.refused}`);
  return place;
};

describe('session stream caps', () => {
  it("counts a request against its session only once it joins, so requests still checking their secret never fill the screen's places", () => {
    const caps = createSessionStreamCaps({ perClient: 3, perSession: 2, total: 10 });
    const screen = placed(caps.open('screen'));
    expect(screen.joinSession('s')).toBeUndefined();
    // Three requests from someone who knows the session's id, their secrets not yet checked.
    const pending = [caps.open('attacker'), caps.open('attacker'), caps.open('attacker')].map(placed);
    expect(caps.open('attacker')).toEqual({ refused: 'client' });
    // The screen's second tab still gets its place on the session.
    const tab = placed(caps.open('tab'));
    expect(tab.joinSession('s')).toBeUndefined();
    const third = placed(caps.open('third'));
    expect(third.joinSession('s')).toEqual({ refused: 'session' });
    third.release();
    expect(caps.openStreams).toBe(5);

    // Their secrets were wrong: released without joining, they give back everything.
    for (const place of pending) place.release();
    screen.release();
    screen.release(); // once only
    expect(caps.openStreams).toBe(1);
    const next = placed(caps.open('attacker'));
    expect(next.joinSession('s')).toBeUndefined();
    expect(() => next.joinSession('t')).toThrow(/one session/);
  });

  it('refuses past the total cap, and counts nothing for a refused stream', () => {
    const caps = createSessionStreamCaps({ perClient: 5, perSession: 5, total: 2 });
    placed(caps.open('a'));
    placed(caps.open('b'));
    expect(caps.open('c')).toEqual({ refused: 'total' });
    expect(caps.openStreams).toBe(2);
  });
});
