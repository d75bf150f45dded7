import type { QueueTodayResponse } from '@qless/contract';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureLocale, I18nProvider, type Locale } from '../../../i18n/i18n';
import { LettersEditor } from './queue-setup';

const SERVICES: QueueTodayResponse['services'] = [
  { service_id: 's-cash', name: 'Cash desk', name_fr: 'Caisse', letter: 'C', planned_letter: 'C' },
  { service_id: 's-loan', name: 'Loans', name_fr: 'Crédits', letter: null, planned_letter: 'A' },
  { service_id: 's-card', name: 'Cards', name_fr: 'Cartes', letter: null, planned_letter: 'B' },
];

function render(locale: Locale): string {
  return renderToStaticMarkup(
    <I18nProvider initial={locale}>
      <LettersEditor services={SERVICES} onChanged={async () => undefined} />
    </I18nProvider>,
  ).replaceAll('&#x27;', "'");
}

describe('the letters of Queue setup', () => {
  beforeAll(() => ensureLocale('fr'));

  it('an empty field shows the letter the service will get, never "A" for all', () => {
    const html = render('en');
    const placeholders = [...html.matchAll(/placeholder="([^"]*)"/g)].map((m) => m[1]);
    expect(placeholders).toEqual(['C', 'A', 'B']);
    expect(html).toContain('No letter chosen: its numbers will start with A (A-001).');
    expect(html).toContain('No letter chosen: its numbers will start with B (B-001).');
    // A chosen letter is the field's value, with no "planned" line.
    expect(html).toMatch(/value="C"/);
    expect(html.match(/No letter chosen/g)).toHaveLength(2);
  });

  it('says it in French', () => {
    expect(render('fr')).toContain(
      'Aucune lettre choisie : ses numéros commenceront par B (B-001).',
    );
  });
});
