import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** Prints count, rate and time left to stderr, at most every five seconds. */
export function progressReporter(label: string, total: number, startAt: number) {
  const started = performance.now();
  let shown = 0;
  return (done: number) => {
    const now = performance.now();
    if (now - shown < 5000 && done < total) return;
    shown = now;
    const rate = (done - startAt) / ((now - started) / 1000);
    const left = rate > 0 ? (total - done) / rate : Infinity;
    console.error(
      `${label}: ${done.toLocaleString('en')} / ${total.toLocaleString('en')} (${((100 * done) / total).toFixed(1)} %), ` +
        `${Math.round(rate).toLocaleString('en')}/s, ${Number.isFinite(left) ? `${Math.round(left / 60)} min` : '?'} left`,
    );
  };
}

/**
 * Seconds each part of a seed has run, summed over restarts, in `<dir>/seed-times.json`: how long
 * seeding took is part of the result, and a killed seed must not forget its earlier runs.
 */
export function recordSeedTime(file: string, part: string, seconds: number, done: Record<string, unknown> = {}) {
  const times = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, unknown>>) : {};
  const before = Number(times[part]?.seconds ?? 0);
  times[part] = { ...times[part], ...done, seconds: Math.round(before + seconds) };
  writeFileSync(file, JSON.stringify(times, null, 2) + '\n');
}
