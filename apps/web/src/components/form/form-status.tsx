import type { ReactNode, Ref } from 'react';
import { Alert } from '../ui/alert';

/** The answer a form shows after an action: success or failure, in words. */
export interface Notice {
  /** info: a normal state said neutrally (nobody waiting), neither success nor failure. */
  tone: 'success' | 'error' | 'info';
  text: ReactNode;
}

/**
 * The polite live region where a form's answer appears, so screen readers say it;
 * `children` are more that the same region announces.
 */
export function FormNotice({
  notice,
  ref,
  children,
}: {
  notice: Notice | null;
  ref?: Ref<HTMLDivElement>;
  children?: ReactNode;
}) {
  return (
    <div ref={ref} aria-live="polite">
      {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
      {children}
    </div>
  );
}

/** The submit button: disabled and saying what it does while its action runs. */
export function SubmitButton({
  busy,
  label,
  busyLabel,
  className = 'btn btn--primary',
  disabled = false,
}: {
  busy: boolean;
  label: string;
  busyLabel: string;
  className?: string;
  /** Held back for another reason (another action running, an upload). */
  disabled?: boolean;
}) {
  return (
    <button type="submit" className={className} disabled={busy || disabled}>
      {busy ? busyLabel : label}
    </button>
  );
}
