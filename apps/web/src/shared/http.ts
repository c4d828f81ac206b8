import { RESERVATION_HEADER } from '@zeroid/protocol';

/** A call that failed, with a message a person can act on. Never contains what they typed. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    /** From a 429's Retry-After: how long before trying again can succeed (the screen counts it down). */
    readonly retryAfterSeconds?: number,
    /** The server's error code, for the few refusals a flow acts on (a move from v2 that would evict, decision 073). */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const NETWORK_MESSAGE = 'Could not reach the server. Please try again.';

/** The running flow's reservation (decision 074), sent with each of its calls; see `withReservation`. */
let flowReservation: string | undefined;

/** Sets (or clears) the reservation every API call carries until it is changed again. */
export function carryReservation(reservation: string | undefined): void {
  flowReservation = reservation;
}

/** fetch() that turns every failure (network, 4xx, 5xx, a reply that is not JSON) into an ApiError. */
export async function requestJson<T>(
  url: string,
  init: { method?: 'GET' | 'POST'; body?: unknown; headers?: Record<string, string> } = {},
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? 'GET',
      headers: {
        accept: 'application/json',
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(flowReservation === undefined ? {} : { [RESERVATION_HEADER]: flowReservation }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  } catch {
    throw new ApiError(NETWORK_MESSAGE);
  }
  if (!response.ok) throw await errorFrom(response);
  try {
    return (await response.json()) as T;
  } catch {
    throw new ApiError('The server sent a reply we could not read. Please try again.', response.status);
  }
}

/** fetch() for binary replies such as images; same error handling as requestJson. */
export async function requestBlob(url: string): Promise<Blob> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch {
    throw new ApiError(NETWORK_MESSAGE);
  }
  if (!response.ok) throw await errorFrom(response);
  return response.blob();
}

async function errorFrom(response: Response): Promise<ApiError> {
  const retryAfter = Number(response.headers.get('retry-after'));
  const retryAfterSeconds = response.status === 429 && Number.isInteger(retryAfter) && retryAfter > 0 ? retryAfter : undefined;
  try {
    const body = (await response.json()) as { error?: { message?: unknown; code?: unknown } };
    const code = typeof body.error?.code === 'string' ? body.error.code : undefined;
    if (typeof body.error?.message === 'string') return new ApiError(body.error.message, response.status, retryAfterSeconds, code);
  } catch {
    // not JSON: fall through to the generic message
  }
  if (response.status === 429) return new ApiError('Too many requests. Please wait a minute and try again.', 429, retryAfterSeconds ?? 60);
  return new ApiError(`The server could not complete the request (HTTP ${response.status}). Please try again.`, response.status);
}
