import { ApiError } from './http.ts';

export const PART_NOT_LOADED_MESSAGE =
  'Part of ZeroID could not be loaded (the connection dropped, or ZeroID was just updated). Please try again; if it keeps failing, reload the page.';

/**
 * A part of the prover loaded on demand (decision 066), whose failure to load reads as something a
 * person can act on instead of the browser's "Failed to fetch dynamically imported module". The
 * caller's input stays on the screen, and the next try asks for the part again.
 */
export function loadOnDemand<T>(load: () => Promise<T>): Promise<T> {
  return load().catch(() => {
    throw new ApiError(PART_NOT_LOADED_MESSAGE);
  });
}
