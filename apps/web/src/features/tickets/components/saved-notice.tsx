import { Alert } from '../../../components/ui/alert';
import { useI18n } from '../../../i18n/i18n';

/**
 * Says that what the page shows is the copy saved on this device (decision 113): the
 * network failed, so the booking may have changed since `savedAt` (cancelled, moved).
 */
export function SavedNotice({ savedAt }: { savedAt: string | null }) {
  const { t, intlLocale } = useI18n();
  const time = savedAt
    ? new Intl.DateTimeFormat(intlLocale, {
        day: 'numeric',
        month: 'short',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(new Date(savedAt))
    : null;
  return (
    <Alert tone="warning">
      <strong className="saved-notice">{t('offline.saved')}</strong>
      {time ? <span className="saved-notice__when"> {t('offline.savedAt', { time })}</span> : null}
    </Alert>
  );
}
