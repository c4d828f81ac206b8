import { describe, expect, it } from 'vitest';
import { createSessionPresence } from './session-presence.ts';

describe('createSessionPresence', () => {
  it('tells the screens following a session once a phone opens it, and forgets it at the expiry', () => {
    let now = 1_000;
    const presence = createSessionPresence(() => now);
    const heard: string[] = [];
    const stopA = presence.onOpened('a', () => heard.push('a'));
    presence.onOpened('b', () => heard.push('b'));
    expect(presence.opened('a')).toBe(false);
    presence.markOpened('a', new Date(2_000));
    presence.markOpened('a', new Date(2_000)); // a second phone, or a reload: told once
    expect(heard).toEqual(['a']);
    expect(presence.opened('a')).toBe(true);
    expect(presence.opened('b')).toBe(false);
    stopA();
    now = 2_000;
    expect(presence.opened('a')).toBe(false);
  });
});
