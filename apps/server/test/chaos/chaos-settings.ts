/**
 * The chaos suite runs in `npm test` at a small scale and in `npm run test:chaos` at full scale
 * (CHAOS=full): 20 kill cycles per database instead of 3. Each test prints its figures as one
 * `chaos:` JSON line, for the closing notes and for anyone reading a CI log.
 */
export const FULL = process.env.CHAOS === 'full';
export const KILL_CYCLES = Number(process.env.CHAOS_KILL_CYCLES ?? (FULL ? 20 : 3));
export const SLOW_CLIENTS = 500;

export function report(name: string, figures: Record<string, unknown>) {
  console.log(`chaos: ${JSON.stringify({ name, ...figures })}`);
}
