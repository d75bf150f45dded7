/**
 * A load that failed, said as such, with a way to try again (never an empty list that
 * looks like "nothing here").
 */
export function LoadError({
  message,
  retryLabel,
  onRetry,
}: {
  message: string;
  retryLabel: string;
  onRetry: () => void;
}) {
  return (
    <div className="alert alert--error load-error" role="alert">
      <p>{message}</p>
      <button type="button" className="btn btn--secondary" onClick={onRetry}>
        {retryLabel}
      </button>
    </div>
  );
}
