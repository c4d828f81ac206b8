/**
 * Whether this browser runs on a phone: what a screen needs to know before it offers to continue
 * "on my phone" (pointless on the phone itself). Any one sign is enough:
 * - Chromium says so in User-Agent Client Hints; other browsers put "Mobi" in the user agent of
 *   phones and leave it out on tablets and desktops;
 * - a small screen (a phone held upright, 480 CSS px wide or less);
 * - a touch-only (coarse, no hover) screen 480 px tall or less: a phone held sideways.
 * A tablet or a narrow desktop window past these keeps the offer.
 */
export function isPhone(): boolean {
  const hints = (navigator as { userAgentData?: { mobile?: boolean } }).userAgentData;
  if (hints?.mobile ?? /\bMobi/i.test(navigator.userAgent)) return true;
  return matchMedia('(max-width: 480px), (pointer: coarse) and (hover: none) and (max-height: 480px)').matches;
}
