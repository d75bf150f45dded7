import { useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { PRODUCT_NAME } from '../../../config';
import { useI18n } from '../../../i18n/i18n';
import { joinUrl } from '../lib/setup-forms';

/**
 * Downloads the poster for the door. jsPDF and the QR encoder load only on the click, in
 * their own chunk (the ticket PDF's libraries, shared with it).
 */
export function PosterButton(props: { organizationId: string; organizationName: string }) {
  const { t } = useI18n();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const download = async () => {
    setBusy(true);
    setFailed(false);
    try {
      const { renderPoster, posterFileName } = await import('../lib/queue-poster');
      const doc = await renderPoster({
        organizationName: props.organizationName,
        joinUrl: joinUrl(window.location.origin, props.organizationId),
        productName: PRODUCT_NAME,
      });
      doc.save(posterFileName(props.organizationName));
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      {failed ? <Alert tone="error">{t('queueSetup.poster.failed')}</Alert> : null}
      <button
        type="button"
        className="btn btn--primary"
        disabled={busy}
        onClick={() => void download()}
      >
        {busy ? t('queueSetup.poster.making') : t('queueSetup.poster.download')}
      </button>
    </>
  );
}
