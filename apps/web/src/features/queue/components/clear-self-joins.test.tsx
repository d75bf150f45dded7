import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { en } from '../../../i18n/en';
import { fr } from '../../../i18n/fr';
import { ensureLocale, I18nProvider, type Locale } from '../../../i18n/i18n';
import { visit } from '../lib/queue-fixtures';
import { clearableSelfJoins } from '../lib/queue-view';
import { ClearSelfJoins } from './clear-self-joins';

const NOW = '2026-03-16T09:00:00.000Z';
const minutesAgo = (m: number) => new Date(Date.parse(NOW) - m * 60_000).toISOString();
const line = [
  // Three from the poster a few minutes ago, one this morning; a desk walk-in; one called.
  ...[1, 2, 3].map((m) => visit({ visit_id: `f${m}`, source: 'self', arrived_at: minutesAgo(m) })),
  visit({ visit_id: 'early', source: 'self', arrived_at: minutesAgo(90) }),
  visit({ visit_id: 'desk', source: 'staff', arrived_at: minutesAgo(2) }),
  visit({ visit_id: 'called', source: 'self', state: 'called', called_at: minutesAgo(1) }),
];

const render = (locale: Locale, visits = line) =>
  renderToStaticMarkup(
    <I18nProvider initial={locale}>
      <ClearSelfJoins visits={visits} serverTime={NOW} busy={false} onClear={() => undefined} />
    </I18nProvider>,
  ).replaceAll('&#x27;', "'");

describe('clearing the joins from the poster at the counter (decision 125)', () => {
  it('counts those from the poster never called, in the window; staff walk-ins and calls spared', () => {
    expect(clearableSelfJoins(line, NOW, 30).map((v) => v.visit_id)).toEqual(['f1', 'f2', 'f3']);
    expect(clearableSelfJoins(line, NOW, null).map((v) => v.visit_id)).toEqual([
      'f1',
      'f2',
      'f3',
      'early',
    ]);
  });

  it('says how many it removes, in English and in French; nothing shown when none', async () => {
    await ensureLocale('fr');
    expect(render('en')).toContain(
      'Remove the 3 people who joined from the poster and were never called',
    );
    expect(render('fr')).toContain(
      'Retirer les 3 personnes inscrites par l’affiche et jamais appelées',
    );
    expect(render('en', line.slice(4))).toBe('');
    for (const key of ['queue.clear.confirm', 'queue.clear.done'] as const) {
      expect(en[key]).toContain('{n}');
      expect(fr[key]).toContain('{n}');
    }
  });
});
