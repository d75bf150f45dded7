import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ensureLocale, I18nProvider, type Locale } from '../../../i18n/i18n';
import { QueueArrival } from './result-panel';

const render = (openCounter: boolean, locale: Locale = 'en') =>
  renderToStaticMarkup(
    <I18nProvider initial={locale}>
      <QueueArrival number="C-002" openCounter={openCounter} />
    </I18nProvider>,
  ).replaceAll('&#x27;', "'");

describe('the check-in confirmation', () => {
  it('gives the queue number to read out, large', () => {
    const html = render(true);
    expect(html).toMatch(/class="checkin-result__number-value"[^>]*>C-002</);
    expect(html).toContain('Queue number');
    expect(html).not.toContain('No open counter');
  });

  it('warns, neutrally, when no open counter serves the service', async () => {
    expect(render(false)).toContain('No open counter serves this service yet');
    await ensureLocale('fr');
    const fr = render(false, 'fr');
    expect(fr).toContain('Numéro d’attente');
    expect(fr).toContain('Aucun guichet ouvert ne traite ce service');
    expect(fr).not.toContain('alert');
  });
});
