import { type ReactNode, useEffect, useId, useRef } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Modal } from '../../../components/ui/modal';
import { useI18n } from '../../../i18n/i18n';

interface Props {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  dismissLabel: string;
  /** A destructive choice puts "keep" first, so the focused button is the safe one. */
  destructive?: boolean;
  busy: boolean;
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * A confirmation step. Focus goes to its first control when it opens (the Modal returns it
 * to the opener when it closes); it cannot be dismissed while the request runs.
 */
export function ConfirmDialog(props: Props) {
  const { t } = useI18n();
  const titleId = useId();
  const firstRef = useRef<HTMLButtonElement>(null);
  // The Modal's effect (showModal, which focuses the close button) runs before this one.
  useEffect(() => {
    firstRef.current?.focus();
  }, []);
  const close = () => {
    if (!props.busy) props.onClose();
  };
  const confirm = (
    <button
      type="button"
      ref={props.destructive ? undefined : firstRef}
      className={props.destructive ? 'btn btn--danger' : 'btn btn--primary'}
      disabled={props.busy}
      onClick={props.onConfirm}
    >
      {props.busy ? props.busyLabel : props.confirmLabel}
    </button>
  );
  const dismiss = (
    <button
      type="button"
      ref={props.destructive ? firstRef : undefined}
      className="btn btn--secondary"
      disabled={props.busy}
      onClick={close}
    >
      {props.dismissLabel}
    </button>
  );
  return (
    <Modal labelledBy={titleId} onClose={close} closeLabel={t('ticketPage.close')}>
      <h2 id={titleId} className="modal__title">
        {props.title}
      </h2>
      <div className="confirm-dialog__body">{props.children}</div>
      {props.error ? <Alert tone="error">{props.error}</Alert> : null}
      <div className="confirm-dialog__actions">
        {props.destructive ? (
          <>
            {dismiss}
            {confirm}
          </>
        ) : (
          <>
            {confirm}
            {dismiss}
          </>
        )}
      </div>
    </Modal>
  );
}
