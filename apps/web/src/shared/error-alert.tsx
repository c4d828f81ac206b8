const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/**
 * A failed call, announced at once to screen readers. With `retryIn` (a lockout's seconds left), a
 * countdown under it: a timer, not announced each second.
 */
export function ErrorAlert({ message, retryIn = 0 }: { message: string | undefined; retryIn?: number }) {
  if (!message) return null;
  return (
    <>
      <p className="alert" role="alert">
        {message}
      </p>
      {retryIn > 0 ? (
        <p className="countdown" role="timer" aria-live="off">
          You can try again in {clock(retryIn)}.
        </p>
      ) : null}
    </>
  );
}
