import type { Browser } from 'playwright-core';

/**
 * A context whose pages report the journey's instants on the browser's clock: the click on the
 * site's "Sign in", the sign-in screen's QR code loaded (the phone journey's start), and the
 * site's signed-in page. `origin` is the site's, `zeroId` ZeroID's (whose screen's own User Timing
 * marks are reported too). `next(name)` resolves at the next such instant; `seen` holds them all.
 */
export async function journeyMarksContext(browser: Browser, origins: { origin: string; zeroId: string }) {
  const context = await browser.newContext();
  const marks = new Map<string, (at: number) => void>();
  // Every instant reported, the sign-in screen's own marks included: the suite splits a journey into phases by them.
  const seen = new Map<string, number>();
  await context.exposeFunction('__journeyMark', (name: string, at: number) => {
    seen.set(name, at);
    marks.get(name)?.(at);
  });
  await context.addInitScript(({ origin, zeroId }: { origin: string; zeroId: string }) => {
    const mark = (globalThis as unknown as { __journeyMark: (name: string, at: number) => void }).__journeyMark;
    if (location.origin === zeroId) {
      // The screen's User Timing marks (shared/timeline-mark.ts), on the same clock.
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          if (entry.name.startsWith('zeroid:sign-in-')) mark(entry.name.slice('zeroid:'.length), performance.timeOrigin + entry.startTime);
        }
      }).observe({ type: 'mark', buffered: true });
      // An image's load event does not reach the window: caught on the document, in its capture phase.
      document.addEventListener(
        'load',
        (event) => {
          if ((event.target as Element | null)?.matches?.('img.qr')) mark('qr', performance.timeOrigin + performance.now());
        },
        true,
      );
    }
    if (location.origin !== origin) return;
    addEventListener(
      'click',
      (event) => {
        if (!(event.target as Element | null)?.closest?.('#sign-in')) return;
        performance.mark('zeroid:journey-click', { startTime: event.timeStamp });
        mark('click', performance.timeOrigin + event.timeStamp);
      },
      true,
    );
    addEventListener('DOMContentLoaded', () => {
      if (!document.getElementById('signed-in')) return;
      performance.mark('zeroid:journey-signed-in');
      mark('signed-in', performance.timeOrigin + performance.now());
    });
  }, origins);
  const next = (name: string) => new Promise<number>((resolve) => marks.set(name, resolve));
  return { context, next, seen };
}
