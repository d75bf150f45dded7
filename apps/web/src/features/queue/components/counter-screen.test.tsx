import type { Counter, QueueVisit } from '@qless/contract';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ensureLocale, I18nProvider, type Locale } from '../../../i18n/i18n';
import { counter, queueToday, visit } from '../lib/queue-fixtures';
import { HeldPanel } from './counter-screen';
import { QueueLine } from './queue-line';

const clean = (html: string) => html.replaceAll('&#x27;', "'").replaceAll('&amp;', '&');

function held(c: Counter, v: QueueVisit | null, locale: Locale = 'en'): string {
  return clean(
    renderToStaticMarkup(
      <I18nProvider initial={locale}>
        <HeldPanel
          counter={c}
          visit={v}
          today={queueToday(v ? [v] : [], [c])}
          waiting={4}
          busy={false}
          onCommand={() => undefined}
          onTransfer={() => undefined}
        />
      </I18nProvider>,
    ),
  );
}

/** The buttons of the markup: their label and whether they are disabled. */
function buttons(html: string): Record<string, boolean> {
  const found: Record<string, boolean> = {};
  for (const m of html.matchAll(/<button([^>]*)>([^<]*)/g)) {
    found[(m[2] ?? '').trim()] = /disabled/.test(m[1] ?? '');
  }
  return found;
}

describe('the held visit at a counter', () => {
  it('called: Start, Recall, No-show; Call next waits until the visitor is dealt with', () => {
    const v = visit({
      visit_id: 'v1',
      number: 'A-042',
      state: 'called',
      counter_id: 'c1',
      recalls: 1,
    });
    const html = held(counter({ current_visit_id: 'v1' }), v);
    expect(html).toContain('A-042');
    expect(html).toContain('Ada Nkem');
    expect(html).toContain('Cash desk');
    expect(html).toContain('Recalled 1 times (at most 2)');
    const b = buttons(html);
    expect(b).toMatchObject({ Start: false, Recall: false, 'No-show': false, Transfer: true });
    expect(b['Call next']).toBeUndefined();
    // Transfer offers the other service only.
    expect(html).toContain('Loans');
    expect(html).not.toMatch(/<option value="s-cash"/);
  });

  it('serving: Done, and Call next (which finishes this one first)', () => {
    const v = visit({ visit_id: 'v1', number: 'A-042', state: 'serving', counter_id: 'c1' });
    const b = buttons(held(counter({ current_visit_id: 'v1' }), v));
    expect(b).toMatchObject({ Done: false, 'Call next': false });
    expect(b.Start).toBeUndefined();
  });

  it('idle: Call next while open, held back while paused or closed, in French too', async () => {
    expect(buttons(held(counter(), null))['Call next']).toBe(false);
    expect(held(counter(), null)).toContain('Waiting for your services: 4');
    await ensureLocale('fr');
    const paused = held(counter({ state: 'paused' }), null, 'fr');
    expect(buttons(paused)['Appeler le suivant']).toBe(true);
    expect(paused).toContain('Ouvrez votre guichet pour appeler la personne suivante.');
  });
});

describe('the line', () => {
  const line = [
    visit({
      visit_id: 'v1',
      number: 'A-007',
      source: 'booking',
      slot_start: '2026-03-16T08:30:00.000Z',
      position: 1,
      estimate: { min_minutes: 0, max_minutes: 0 },
    }),
    visit({
      visit_id: 'v2',
      number: 'B-003',
      service_id: 's-loan',
      service_name: 'Loans',
      service_name_fr: 'Crédits',
      customer_name: 'Jean Mbarga',
      source: 'self',
      position: 3,
      estimate: { min_minutes: 10, max_minutes: 20 },
    }),
  ];
  const render = (locale: Locale) =>
    clean(
      renderToStaticMarkup(
        <I18nProvider initial={locale}>
          <QueueLine visits={line} timeZone="Africa/Douala" counter={counter()} />
        </I18nProvider>,
      ),
    );

  it('shows number, name, service, booked or walk-in, place and wait, in calling order', () => {
    const html = render('en');
    expect(html.indexOf('A-007')).toBeLessThan(html.indexOf('B-003'));
    expect(html).toContain('Booked 09:30');
    expect(html).toContain('Walk-in (joined by phone)');
    expect(html).toContain('No. 3 in line');
    expect(html).toContain('about 10–20 min');
    // The counter serves the cash desk only: the loan visitor is dimmed, not hidden.
    const dimmed = html.indexOf('queue-row--other');
    expect(dimmed).toBeGreaterThan(html.indexOf('A-007'));
    expect(dimmed).toBeLessThan(html.indexOf('B-003'));
  });

  it('speaks French', async () => {
    await ensureLocale('fr');
    const html = render('fr');
    expect(html).toContain('Rendez-vous 09:30');
    expect(html).toContain('Crédits');
    expect(html).toContain('3e dans la file');
    expect(html).toContain('environ 10 à 20 min');
  });
});
