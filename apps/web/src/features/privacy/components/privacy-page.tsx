import type { PrivacyInfo } from '@qless/contract';
import { useI18n } from '../../../i18n/i18n';
import { embedded } from '../../../lib/embedded-data';
import { useAsync } from '../../../lib/use-async';
import { getPrivacy, privacyQuery } from '../api/privacy-api';
import { en, fr } from '../privacy-text';
import './privacy.css';

/** Backups kept: the newest of each of the last 8 weeks (backup/retention.ts, DEFAULT_RETENTION). */
const BACKUP_WEEKS = 8;

const fill = (text: string, info: PrivacyInfo | null) =>
  text
    .replace('{days}', info ? String(info.retention_days) : '…')
    .replace('{auditDays}', info ? String(info.audit_retention_days) : '…')
    .replace('{backupWeeks}', String(BACKUP_WEEKS));

/**
 * `/privacy`: what Qless keeps, why, for how long (the server's settings, in the HTML the
 * server rendered), who sees it, and the reader's rights. Plain text, no form.
 */
export function PrivacyPage({ contactHref }: { contactHref: string }) {
  const { t, locale } = useI18n();
  const text = locale === 'fr' ? fr : en;
  const state = useAsync(
    (signal) => getPrivacy(signal),
    [],
    false,
    embedded(privacyQuery(), (body) => body),
  );
  const info = state.status === 'success' ? state.data : null;
  const list = (items: string[]) => (
    <ul>
      {items.map((item) => (
        <li key={item}>{fill(item, info)}</li>
      ))}
    </ul>
  );
  return (
    <article className="container page-section page-section--narrow privacy-page">
      <h1 className="page-title">{t('privacy.title')}</h1>
      <p className="page-lead">{text.lead}</p>
      <h2>{text.keptTitle}</h2>
      {list(text.kept)}
      <h2>{text.whyTitle}</h2>
      <p>{text.why}</p>
      <h2>{text.howLongTitle}</h2>
      <div data-retention-days={info?.retention_days}>{list(text.howLong)}</div>
      <h2>{text.whoTitle}</h2>
      {list(text.who)}
      <h2>{text.rightsTitle}</h2>
      <p>{text.rights}</p>
      <p>{text.howTo}</p>
      <p>
        <a className="btn btn--secondary" href={contactHref}>
          {text.contactLink}
        </a>
      </p>
    </article>
  );
}
