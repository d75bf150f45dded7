import type { AdminService } from '@qless/contract';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureLocale, I18nProvider, type Locale } from '../../../i18n/i18n';
import { ServiceNames, ServicesScreen } from './services-screen';

const SERVICE: AdminService = {
  service_id: '22222222-2222-4222-8222-222222222222',
  organization_id: '11111111-1111-4111-8111-111111111111',
  service_name: 'Account opening',
  service_description: 'Open a current account.',
  service_name_fr: 'Ouverture de compte',
  service_description_fr: 'Ouvrez un compte courant.',
  duration: 30,
  capacity: 1,
  active: true,
};

const text = (html: string) => html.replace(/<[^>]+>/g, '|').replace(/\|+/g, '|');

const names = (locale: Locale, service: AdminService = SERVICE) =>
  text(
    renderToStaticMarkup(
      <I18nProvider initial={locale}>
        <ServiceNames service={service} />
      </I18nProvider>,
    ),
  );

describe('the admin’s services list (it once led with English for a French admin)', () => {
  beforeAll(() => ensureLocale('fr'));

  it('leads with the French name on a French screen, the English one under it', () => {
    expect(names('fr')).toBe('|Ouverture de compte|En anglais\u00a0: Account opening|');
  });

  it('leads with the English name on an English screen', () => {
    expect(names('en')).toBe('|Account opening|French: Ouverture de compte|');
  });

  it('shows the one name a service has when no French was written', () => {
    expect(names('fr', { ...SERVICE, service_name_fr: null })).toBe('|Account opening|');
  });

  it('shows the French description and French button labels on a French screen', () => {
    const html = renderToStaticMarkup(
      <I18nProvider initial="fr">
        <ServicesScreen
          organizationId={SERVICE.organization_id}
          services={[SERVICE]}
          attentionHref="#"
          onChanged={async () => {}}
        />
      </I18nProvider>,
    );
    expect(html).toContain('Ouvrez un compte courant.');
    expect(html).not.toContain('Open a current account.');
    expect(html).toMatch(/aria-label="[^"]*Ouverture de compte"/);
  });
});
