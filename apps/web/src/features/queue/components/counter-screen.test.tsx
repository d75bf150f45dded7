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
          line={v?.state === 'waiting' ? [v] : []}
          onCallVisit={() => undefined}
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

/** The label of each button of the markup, in document order, with its data-slot. */
function slots(html: string): { label: string; slot: string | null; disabled: boolean }[] {
  return [...html.matchAll(/<button([^>]*)>([^<]*)/g)].map((m) => ({
    label: (m[2] ?? '').trim(),
    slot: /data-slot="([a-z]+)"/.exec(m[1] ?? '')?.[1] ?? null,
    disabled: /disabled/.test(m[1] ?? ''),
  }));
}

describe('the held visit at a counter', () => {
  it('called: Start takes Call next’s place; Recall below; No-show apart, last, held back until the recalls', () => {
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
    expect(b).toMatchObject({ Start: false, Recall: false, 'No-show': true, Transfer: true });
    expect(b['Call next']).toBeUndefined();
    // Why No-show waits: one more recall to make.
    expect(html).toContain('No-show comes after the recalls set (1 left of 2)');
    // Transfer offers the other service only.
    expect(html).toContain('Loans');
    expect(html).not.toMatch(/<option value="s-cash"/);
    const order = slots(html);
    expect(order[0]).toMatchObject({ label: 'Start', slot: 'main' });
    expect(order.at(-1)).toMatchObject({ label: 'No-show', slot: 'danger' });
  });

  it('No-show is offered once the visitor was recalled as often as the organization set', () => {
    const v = visit({ visit_id: 'v1', state: 'called', counter_id: 'c1', recalls: 2 });
    const html = held(counter({ current_visit_id: 'v1' }), v);
    expect(buttons(html)['No-show']).toBe(false);
    expect(html).toContain('Only if they did not come after the recalls.');
  });

  it('the main place holds Call next, Start or Done — never No-show, in any state', () => {
    const states = [
      null,
      visit({ visit_id: 'v1', state: 'called', counter_id: 'c1', recalls: 0 }),
      visit({ visit_id: 'v1', state: 'called', counter_id: 'c1', recalls: 2 }),
      visit({ visit_id: 'v1', state: 'serving', counter_id: 'c1' }),
    ];
    const mains = states.map((v) => {
      const order = slots(held(counter({ current_visit_id: v?.visit_id ?? null }), v));
      // The main act is the first button of the panel: where the finger that pressed Call
      // next lands again.
      expect(order[0]?.slot).toBe('main');
      expect(order.filter((b) => b.slot === 'main')).toHaveLength(1);
      return order[0]?.label;
    });
    expect(mains).toEqual(['Call next', 'Start', 'Start', 'Done']);
  });

  it('every button is disabled while a request is in flight', () => {
    const v = visit({ visit_id: 'v1', state: 'called', counter_id: 'c1', recalls: 2 });
    const html = clean(
      renderToStaticMarkup(
        <I18nProvider initial="en">
          <HeldPanel
            counter={counter({ current_visit_id: 'v1' })}
            visit={v}
            today={queueToday([v], [counter()])}
            waiting={4}
            busy
            onCommand={() => undefined}
            onTransfer={() => undefined}
            line={[]}
            onCallVisit={() => undefined}
          />
        </I18nProvider>,
      ),
    );
    expect(Object.values(buttons(html)).every(Boolean)).toBe(true);
  });

  it('serving: Done in the main place, and Call next (which finishes this one first)', () => {
    const v = visit({ visit_id: 'v1', number: 'A-042', state: 'serving', counter_id: 'c1' });
    const b = buttons(held(counter({ current_visit_id: 'v1' }), v));
    expect(b).toMatchObject({ Done: false, 'Call next': false });
    expect(b.Start).toBeUndefined();
    expect(b['No-show']).toBeUndefined();
  });

  it('idle: Call next while open, held back while paused or closed, in French too', async () => {
    expect(buttons(held(counter(), null))['Call next']).toBe(false);
    expect(held(counter(), null)).toContain('Waiting for you: 4');
    await ensureLocale('fr');
    const paused = held(counter({ state: 'paused' }), null, 'fr');
    expect(buttons(paused)['Appeler le suivant']).toBe(true);
    expect(paused).toContain('Ouvrez votre guichet pour appeler la personne suivante.');
    const called = held(
      counter({ current_visit_id: 'v1' }),
      visit({ visit_id: 'v1', state: 'called', counter_id: 'c1' }),
      'fr',
    );
    expect(called).toContain('« Absent » vient après les rappels prévus (encore 2 sur 2)');
  });

  it('offers a call out of turn, folded away, with a reason required; a transfer names a standing counter (French)', async () => {
    await ensureLocale('fr');
    const waiting = [
      visit({ visit_id: 'w1', number: 'A-003', customer_name: 'Awa' }),
      visit({ visit_id: 'w2', number: 'A-004', customer_name: 'Bello' }),
    ];
    const render = (v: QueueVisit | null, line: QueueVisit[]) =>
      clean(
        renderToStaticMarkup(
          <I18nProvider initial="fr">
            <HeldPanel
              counter={counter({ current_visit_id: v?.visit_id ?? null })}
              visit={v}
              today={queueToday(v ? [v, ...line] : line, [
                counter(),
                counter({ counter_id: 'c2', name: 'Guichet 2' }),
                counter({ counter_id: 'c3', name: 'Guichet 3', state: 'closed' }),
              ])}
              waiting={line.length}
              busy={false}
              onCommand={() => undefined}
              onTransfer={() => undefined}
              line={line}
              onCallVisit={() => undefined}
            />
          </I18nProvider>,
        ),
      );
    const idle = render(null, waiting);
    expect(idle).toContain('<details class="queue-jump"><summary>Appeler un numéro hors tour');
    expect(idle).toContain('A-004 · Bello');
    expect(idle).toContain('Retour avec un document');
    expect(idle).toContain('le tableau affiche « Hors tour »');
    // The button is pressable (a dead button says nothing); both choices are required and a
    // press without them says so in words (the component's own state: not rendered here).
    expect(buttons(idle)['Appeler hors tour']).toBe(false);
    expect(idle.match(/<select[^>]*required/g)).toHaveLength(2);
    // A kiosk visitor has no name: the number alone, no dangling dot.
    const nameless = render(null, [visit({ visit_id: 'k1', number: 'A-007', customer_name: '' })]);
    expect(nameless).toContain('>A-007</option>');
    // Nobody waiting: nothing to call out of turn.
    expect(render(null, [])).not.toContain('queue-jump');
    // Called: the visitor must be started or let go first (the server refuses, too).
    const called = visit({ visit_id: 'v1', state: 'called', counter_id: 'c1' });
    expect(render(called, waiting)).not.toContain('queue-jump');
    // Serving: the transfer lists the other services and the counters that stand, not a closed one.
    const serving = render(visit({ visit_id: 'v1', state: 'serving', counter_id: 'c1' }), waiting);
    expect(serving).toContain('<optgroup label="Guichets (seul ce guichet l’appellera)">');
    expect(serving).toContain('value="counter:c2">Guichet 2');
    expect(serving).not.toContain('Guichet 3');
    expect(serving).toContain('value="service:s-loan"');
    expect(serving).toContain('queue-jump');
    expect(serving).toContain('La personne que vous servez est d’abord marquée terminée.');
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

  it('shows this counter’s order first (1st, 2nd for you), then the other services with their own place', () => {
    const html = render('en');
    expect(html.indexOf('A-007')).toBeLessThan(html.indexOf('B-003'));
    expect(html).toContain('Booked 09:30');
    expect(html).toContain('Walk-in (joined by phone)');
    expect(html).toContain('Your counter calls next');
    expect(html).toContain('1st for you');
    expect(html).toContain('Other services');
    expect(html).toContain('3rd in line');
    expect(html).toContain('about 10–20 min');
    // The counter serves the cash desk only: the loan visitor is below, dimmed, not hidden.
    expect(html.indexOf('Your counter calls next')).toBeLessThan(html.indexOf('A-007'));
    expect(html.indexOf('Other services')).toBeLessThan(html.indexOf('B-003'));
    const dimmed = html.indexOf('queue-row--other');
    expect(dimmed).toBeGreaterThan(html.indexOf('A-007'));
    expect(dimmed).toBeLessThan(html.indexOf('B-003'));
  });

  it('four services each with a 1st: this counter’s next is the only "1st for you"', () => {
    const lines = ['s-cash', 's-loan', 's-cash'].map((service_id, i) =>
      visit({ visit_id: `x${i}`, number: `N-00${i}`, service_id, position: i === 2 ? 2 : 1 }),
    );
    const html = clean(
      renderToStaticMarkup(
        <I18nProvider initial="en">
          <QueueLine visits={lines} timeZone="Africa/Douala" counter={counter()} />
        </I18nProvider>,
      ),
    );
    expect(html.match(/1st for you/g)).toHaveLength(1);
    expect(html).toContain('2nd for you');
    // Mine in calling order first (N-000 then N-002), the other service after.
    expect(html.indexOf('N-000')).toBeLessThan(html.indexOf('N-002'));
    expect(html.indexOf('N-002')).toBeLessThan(html.indexOf('N-001'));
  });

  it('speaks French, with 1er and never 1e', async () => {
    await ensureLocale('fr');
    const html = render('fr');
    expect(html).toContain('Rendez-vous 09:30');
    expect(html).toContain('Crédits');
    expect(html).toContain('1er pour vous');
    expect(html).toContain('3e dans la file');
    expect(html).not.toMatch(/\b1e\b/);
    expect(html).toContain('environ 10 à 20 min');
  });

  it('nobody waiting for this counter is a neutral status, not an alert', () => {
    const others = [visit({ visit_id: 'o', service_id: 's-loan', position: 1 })];
    const html = renderToStaticMarkup(
      <I18nProvider initial="en">
        <QueueLine visits={others} timeZone="Africa/Douala" counter={counter()} />
      </I18nProvider>,
    );
    expect(html).toContain('Nobody is waiting for your services.');
    expect(html).toMatch(/role="status"[^>]*>Nobody is waiting/);
    expect(html).not.toContain('role="alert"');
  });

  it('tags a priority visitor in words, a premium client by the organization’s own name', async () => {
    await ensureLocale('fr');
    const tagged = [
      visit({ visit_id: 'e', priority_category: 'elderly', customer_name: 'Paul', position: 1 }),
      visit({ visit_id: 'p', priority_category: 'premium', customer_name: 'Awa', position: 2 }),
    ];
    const html = renderToStaticMarkup(
      <I18nProvider initial="fr">
        <QueueLine
          visits={tagged}
          timeZone="Africa/Douala"
          counter={counter()}
          premiumLabel="Clients Or"
        />
      </I18nProvider>,
    );
    expect(html).toMatch(/Paul <span class="queue-row__priority">Personne âgée<\/span>/);
    expect(html).toContain('Clients Or');
    expect(html).not.toContain('Client privilégié');
  });

  it('says which counter a visitor sent by name waits for, and lists them as another counter’s (decision 139)', async () => {
    await ensureLocale('fr');
    const sent = visit({ visit_id: 's', customer_name: 'Luc', position: 1, for_counter_id: 'c2' });
    const html = renderToStaticMarkup(
      <I18nProvider initial="fr">
        <QueueLine
          visits={[sent]}
          timeZone="Africa/Douala"
          counter={counter()}
          counters={[counter(), counter({ counter_id: 'c2', name: 'Prêts' })]}
        />
      </I18nProvider>,
    );
    expect(html).toContain('Sans rendez-vous · envoyé vers Prêts');
    expect(html).toContain('Autres services');
    expect(html).not.toContain('1er pour vous');
  });
});
