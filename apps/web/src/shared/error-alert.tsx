/** A failed call, announced at once to screen readers. */
export function ErrorAlert({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="alert" role="alert">
      {message}
    </p>
  );
}
