import type { InvitationDelivery } from '@qless/contract';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ensureLocale, I18nProvider, type Locale } from '../../i18n/i18n';
import { InvitationResult, whatsAppShareUrl } from './invitation-result';

const LINK = 'https://qless.cm/#/invite/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';

function html(delivery: InvitationDelivery, locale: Locale, phone = ''): string {
  return renderToStaticMarkup(
    <I18nProvider initial={locale}>
      <InvitationResult
        delivery={delivery}
        email="kofi@guichet.cm"
        phone={phone}
        lead="Compte créé pour kofi@guichet.cm."
      />
    </I18nProvider>,
  )
    .replaceAll('&#x27;', "'")
    .replaceAll('&amp;', '&');
}

describe('InvitationResult (never "sent" for what was only queued)', () => {
  it('without e-mail: says none went out, shows the link, Copy and a WhatsApp share link', async () => {
    await ensureLocale('fr');
    const text = html(
      { email: 'not_configured', link: LINK, sms: 'queued', valid_hours: 72 },
      'fr',
      '677 12 34 56',
    );
    expect(text).toContain(
      'L’envoi d’e-mails n’est pas configuré sur ce serveur : aucun e-mail n’a été envoyé à kofi@guichet.cm.',
    );
    expect(text).toContain(`value="${LINK}"`);
    expect(text).toContain('Copier le lien');
    expect(text).toContain('Partager sur WhatsApp');
    expect(text).toContain(`href="https://wa.me/?text=`);
    expect(text).toContain(encodeURIComponent(LINK));
    expect(text).toContain('Un SMS avec le lien est en file d’attente pour le 677 12 34 56.');
    expect(text).not.toMatch(/Invitation envoyée|a été envoyée à/);
  });

  it('with e-mail: says it is queued, and shows no link', () => {
    const text = html({ email: 'queued', link: null, sms: null, valid_hours: 72 }, 'en');
    expect(text).toContain('The invitation e-mail to kofi@guichet.cm is queued');
    expect(text).not.toContain('/#/invite/');
    expect(text).not.toContain('wa.me');
    expect(text).not.toMatch(/\bsent\b/i);
  });

  it('builds the WhatsApp share link with the whole text encoded', () => {
    expect(whatsAppShareUrl(`Votre invitation : ${LINK}`)).toBe(
      `https://wa.me/?text=Votre%20invitation%20%3A%20${encodeURIComponent(LINK)}`,
    );
  });
});
