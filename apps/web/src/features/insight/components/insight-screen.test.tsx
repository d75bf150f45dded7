import type { InsightResponse } from '@qless/contract';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureLocale, I18nProvider, type Locale } from '../../../i18n/i18n';
import { ClerksPanel } from './insight-clerks';
import { InsightFigures } from './insight-figures';
import { MessagesPanel } from './insight-messages';

const ORG = '11111111-1111-4111-8111-111111111111';
const SVC = '22222222-2222-4222-8222-222222222222';
const CTR = '33333333-3333-4333-8333-333333333333';
const CLERK = '44444444-4444-4444-8444-444444444444';
const counts = {
  visits: 1234,
  booked: 400,
  walk_in: 834,
  served: 1100,
  no_show_visits: 60,
  left: 74,
  no_show_bookings: 20,
  cancelled_bookings: 15,
  no_show_rate: 0.0635,
};
const answer: InsightResponse = {
  range: { from: '2026-03-02', to: '2026-03-08', days: 7 },
  filters: { service_id: null, counter_id: null },
  branches: [{ id: ORG, name: 'Mairie', branch_name: null, time_zone: 'Africa/Douala' }],
  options: {
    services: [
      { id: SVC, organization_id: ORG, name: 'Birth certificate', name_fr: 'Acte de naissance' },
    ],
    counters: [{ id: CTR, organization_id: ORG, name: 'Guichet 1', retired: false }],
  },
  totals: {
    ...counts,
    wait_minutes: { count: 1160, median: 12.5, p90: 41 },
    service_minutes: { count: 1100, median: 8.2, p90: 19.9 },
  },
  heat_map: [
    { weekday: 1, hour: 8, arrivals: 120 },
    { weekday: 3, hour: 9, arrivals: 95 },
  ],
  daily: [
    { date: '2026-03-02', visits: 300, served: 280, no_shows: 12, median_wait_minutes: 11 },
    { date: '2026-03-03', visits: 250, served: 240, no_shows: 9, median_wait_minutes: null },
  ],
  counters: [
    {
      counter_id: CTR,
      organization_id: ORG,
      name: 'Guichet 1',
      served: 1100,
      median_service_minutes: 8.2,
    },
  ],
  clerks: [
    {
      user_id: CLERK,
      organization_id: ORG,
      name: 'Awa Ndiaye',
      served: 640,
      median_service_minutes: 7.5,
      out_of_order_calls: 2,
    },
  ],
  out_of_order_calls: [
    {
      date: '2026-03-03',
      at: '2026-03-03T09:12:00.000Z',
      organization_id: ORG,
      user_id: CLERK,
      clerk_name: 'Awa Ndiaye',
      counter_name: 'Guichet 1',
      number: 'A-014',
      reason: 'returning',
      undone: false,
    },
  ],
  services: [
    {
      ...counts,
      service_id: SVC,
      organization_id: ORG,
      name: 'Birth certificate',
      name_fr: 'Acte de naissance',
      median_wait_minutes: 12.5,
      median_service_minutes: 8.2,
    },
  ],
  by_branch: [
    {
      ...counts,
      organization_id: ORG,
      name: 'Mairie',
      median_wait_minutes: 12.5,
      median_service_minutes: 8.2,
    },
  ],
  feedback: {
    count: 2,
    average: 3.5,
    distribution: { 1: 0, 2: 1, 3: 0, 4: 0, 5: 1 },
    comments: [
      {
        rating: 5,
        comment: '<img src=x onerror=alert(1)> Très bien',
        date: '2026-03-04',
        organization_id: ORG,
        service_id: SVC,
        service: 'Birth certificate',
        service_fr: 'Acte de naissance',
      },
    ],
  },
  messages: {
    channels: [
      { channel: 'email', sent: 3, delivered: 0, spared: 0, held_by_budget: 0, cost_xaf: 0 },
      { channel: 'sms', sent: 120, delivered: 0, spared: 40, held_by_budget: 5, cost_xaf: 4200 },
      { channel: 'push', sent: 60, delivered: 52, spared: 0, held_by_budget: 0, cost_xaf: 0 },
    ],
    cost_xaf: 4200,
    price_sms_xaf: 35,
    budget: {
      organization_id: ORG,
      monthly_sms_xaf: 5000,
      month: '2026-03',
      spent_xaf: 5000,
      reached: true,
    },
  },
};
const request = {
  from: '2026-03-02',
  to: '2026-03-08',
  serviceId: '',
  counterId: '',
  branchId: '',
};

const render = (locale: Locale, data: InsightResponse = answer) =>
  renderToStaticMarkup(
    <I18nProvider initial={locale}>
      <InsightFigures data={data} request={request} />
    </I18nProvider>,
  );

describe('the Insight figures', () => {
  beforeAll(() => ensureLocale('fr'));

  it('each chart is one image with a summary, its real table (with a caption) one tap away', () => {
    const html = render('en');
    const images = [...html.matchAll(/role="img" aria-label="([^"]*)"/g)].map((m) => m[1]);
    expect(images.length).toBeGreaterThanOrEqual(5);
    expect(images[0]).toContain('1,234 visits');
    // Every SVG is hidden from screen readers; every chart has a <details> with a table.
    expect(html.match(/<svg/g)?.length).toBe(html.match(/<svg[^>]*aria-hidden="true"/g)?.length);
    expect(html.match(/<details/g)?.length).toBe(images.length);
    expect(html.match(/<caption>/g)?.length).toBe(images.length);
    expect(html).toContain('<caption>Visits, served, no-shows and median wait per day</caption>');
    // The figures as numbers people read: thousands, percent, minutes.
    expect(html).toContain('1,234');
    expect(html).toContain('6.4%');
    expect(html).toContain('12.5 min');
  });

  it('comments are text, never HTML', () => {
    const html = render('en');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; Très bien');
  });

  it('CSV links name the kind and the range; branches show only when there are several', () => {
    const html = render('en').replaceAll('&amp;', '&');
    expect(html).toContain(
      'href="/api/v1/organization/insight/export.csv?kind=visits&from=2026-03-02&to=2026-03-08"',
    );
    expect(html).toContain('kind=bookings');
    expect(html).not.toContain('By branch');
    const two = render('en', {
      ...answer,
      by_branch: [
        ...answer.by_branch,
        {
          ...answer.by_branch[0],
          organization_id: SVC,
          name: 'Akwa',
        } as InsightResponse['by_branch'][number],
      ],
    });
    expect(two).toContain('By branch');
    expect(two).toContain('Akwa');
  });

  it('a French screen downloads the file French Excel reads; an English one the standard CSV', () => {
    const fr = render('fr').replaceAll('&amp;', '&');
    expect(fr).toContain(
      'href="/api/v1/organization/insight/export.csv?kind=visits&from=2026-03-02&to=2026-03-08&format=excel-fr"',
    );
    expect(fr).toMatch(/kind=bookings[^"]*&format=excel-fr"/);
    expect(fr).toContain('Exporter (Excel)');
    expect(render('en')).not.toContain('format=');
  });

  it('in French: words, numbers and the service names', () => {
    const html = render('fr');
    expect(html).toContain('Jour par jour');
    expect(html).toContain('Acte de naissance');
    expect(html).toMatch(/1\s234/);
    expect(html).toMatch(/6,4\s%/);
    expect(html).toContain('12,5 min');
  });

  it('per clerk: served, median time, calls out of turn; each call out of turn with its day, clerk and reason (French)', () => {
    const clerks = (locale: Locale, data: InsightResponse = answer) =>
      renderToStaticMarkup(
        <I18nProvider initial={locale}>
          <ClerksPanel data={data} />
        </I18nProvider>,
      );
    const fr = clerks('fr');
    expect(fr).toContain('Par agent');
    expect(fr).toMatch(
      /<th scope="row">Awa Ndiaye<\/th><td class="num">640<\/td><td class="num">7,5 min<\/td><td class="num">2<\/td>/,
    );
    expect(fr).toContain('Awa Ndiaye · Guichet 1');
    expect(fr).toContain('A-014');
    expect(fr).toContain('Retour avec un document');
    // 09:12 UTC is 10:12 in Douala.
    expect(fr).toContain('10:12');
    // The day's signed record of calls, per branch, for the range's last day.
    expect(fr.replaceAll('&amp;', '&')).toContain(
      `href="/api/v1/queue/calls-record?date=2026-03-08&organization_id=${ORG}"`,
    );
    expect(fr).toContain('Registre signé des appels du 8 mars 2026 · Mairie (JSON)');
    const none = clerks('en', { ...answer, clerks: [], out_of_order_calls: [] });
    expect(none).toContain('No clerk served anyone in this period.');
    expect(none).toContain('No call out of turn in this period.');
  });

  it('messages by channel with their cost, what was spared, and the budget used up (French)', () => {
    const html = renderToStaticMarkup(
      <I18nProvider initial="fr">
        <MessagesPanel data={answer} onBudgetSaved={() => {}} />
      </I18nProvider>,
    ).replace(/[\u202f\u00a0]/g, ' ');
    expect(html).toContain('Messages aux clients');
    expect(html).toMatch(
      /<th scope="row">SMS<\/th><td class="num">120<\/td><td class="num">0<\/td><td class="num">4 200<\/td>/,
    );
    expect(html).toMatch(
      /<th scope="row">Notification<\/th><td class="num">60<\/td><td class="num">52<\/td>/,
    );
    expect(html).toContain(
      'SMS non envoyés : 40 car la notification a été affichée, 5 retenus par le budget (1 575 FCFA économisés).',
    );
    expect(html).toContain('SMS ce mois-ci : 5 000 FCFA sur un budget de 5 000 FCFA.');
    expect(html).toContain('Le budget est épuisé');
    expect(html).toContain('value="5000"');
    const none = renderToStaticMarkup(
      <I18nProvider initial="en">
        <MessagesPanel
          data={{ ...answer, messages: { ...answer.messages, budget: null } }}
          onBudgetSaved={() => {}}
        />
      </I18nProvider>,
    );
    // Several branches: no budget form (a budget is one branch's).
    expect(none).not.toContain('Monthly SMS budget');
  });
});
