import { existsSync } from 'node:fs';

/** Real Chromium (Debian's package), for the end-to-end tests and the browser benchmarks. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless, and quiet: no background traffic that would show up in recorded requests. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function assertChromium(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is needed at ${CHROMIUM}. Install it with: apt-get update && apt-get install -y chromium`);
  }
}
