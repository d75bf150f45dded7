import type { InvitationDelivery } from '@qless/contract';
import { useId, useState } from 'react';
import { useI18n } from '../../i18n/i18n';
import { FormNotice, type Notice } from '../form/form-status';
import { Alert } from './alert';

/** WhatsApp's share link: opens the app (or its web page) with the text ready to send. */
export function whatsAppShareUrl(text: string): string {
  return `https://wa.me/?text=${encodeURIComponent(text)}`;
}

/**
 * What became of an invitation, in honest words: an e-mail queued (not
 * "sent": it has not left yet), or, on a server without e-mail, the link itself to copy or
 * share on WhatsApp; and the SMS queued when a number was given. Staff screen and operator
 * console alike.
 */
export function InvitationResult({
  delivery,
  email,
  phone,
  lead,
}: {
  delivery: InvitationDelivery;
  email: string;
  /** The number the SMS goes to, as typed. */
  phone?: string;
  /** What was done first ("Account created for …"). */
  lead: string;
}) {
  const { t } = useI18n();
  const id = useId();
  const [copy, setCopy] = useState<'copied' | 'failed' | null>(null);
  const hours = delivery.valid_hours;
  const { link } = delivery;

  const copyLink = async () => {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  };

  return (
    <div className="invitation-result" data-testid="invitation-result" data-email={delivery.email}>
      <Alert tone={link ? 'warning' : 'success'}>
        <p>{lead}</p>
        <p>
          {link
            ? t('invitation.noEmail', { email, hours })
            : t('invitation.emailQueued', { email, hours })}
        </p>
        {delivery.sms === 'queued' && phone ? <p>{t('invitation.smsQueued', { phone })}</p> : null}
      </Alert>
      {link ? (
        <div className="field invitation-result__share">
          <label htmlFor={`${id}-link`}>{t('invitation.link')}</label>
          <input
            id={`${id}-link`}
            className="input invitation-result__link"
            readOnly
            value={link}
            onFocus={(event) => event.currentTarget.select()}
          />
          <div className="invitation-result__actions">
            <button type="button" className="btn btn--primary" onClick={copyLink}>
              {t('invitation.copy')}
            </button>
            <a
              className="btn btn--secondary"
              href={whatsAppShareUrl(t('invitation.whatsappText', { hours, link }))}
              target="_blank"
              rel="noopener noreferrer"
            >
              {t('invitation.whatsapp')}
            </a>
          </div>
          <p className="hint" aria-live="polite">
            {copy === 'copied' ? t('invitation.copied') : null}
            {copy === 'failed' ? t('invitation.copyFailed') : null}
          </p>
        </div>
      ) : null}
    </div>
  );
}

/** An invitation's result as a screen's notice: what was done, and the delivery. */
export interface InvitationNotice {
  tone: 'invitation';
  text: string;
  delivery: InvitationDelivery;
  email: string;
  phone: string;
}

/** A screen's notice area: a form's answer, or an invitation's result (staff and console). */
export function NoticeWithInvitation({ notice }: { notice: Notice | InvitationNotice | null }) {
  return (
    <FormNotice notice={notice?.tone === 'invitation' ? null : notice}>
      {notice?.tone === 'invitation' ? (
        <InvitationResult
          delivery={notice.delivery}
          email={notice.email}
          phone={notice.phone}
          lead={notice.text}
        />
      ) : null}
    </FormNotice>
  );
}
