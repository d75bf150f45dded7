import type { ReactNode } from 'react';
import { FormNotice } from '../../../components/form/form-status';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { pluralOf } from '../lib/labels';

export type Notice = { tone: 'success' | 'error'; text: string; flagged?: number } | null;

/** How many bookings a change left outside the new hours, days or slots, with a way to them. */
export function FlaggedLine({ count, href }: { count: number; href: string }) {
  const { t, intlLocale } = useI18n();
  if (count <= 0) return null;
  const key: MessageKey =
    pluralOf(count, intlLocale) === 'one' ? 'area.flagged.one' : 'area.flagged.other';
  return (
    <p>
      {t(key, { n: count })} <a href={href}>{t('area.flagged.link')}</a>
    </p>
  );
}

/** A screen's message after an action: in the page, announced, never an alert() box. */
export function NoticeArea({
  notice,
  attentionHref,
  children,
}: {
  notice: Notice;
  attentionHref: string;
  children?: ReactNode;
}) {
  return (
    <FormNotice
      notice={
        notice
          ? {
              tone: notice.tone,
              text: (
                <>
                  <p>{notice.text}</p>
                  {notice.flagged ? (
                    <FlaggedLine count={notice.flagged} href={attentionHref} />
                  ) : null}
                </>
              ),
            }
          : null
      }
    >
      {children}
    </FormNotice>
  );
}

/** A failed save: what failed, then each reason that belongs to no field. */
export function FailureList({ title, reasons }: { title: string; reasons: MessageKey[] }) {
  const { t } = useI18n();
  return (
    <>
      <p>{title}</p>
      {reasons.length > 0 ? (
        <ul>
          {reasons.map((key) => (
            <li key={key}>{t(key)}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
