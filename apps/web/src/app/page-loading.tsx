/** Shown while a screen's code loads on a first visit straight to that screen (usually a blink). */
export function PageLoading() {
  return (
    <section className="card">
      <p className="progress" role="status">
        <span className="spinner" aria-hidden="true" />
        Loading…
      </p>
    </section>
  );
}
