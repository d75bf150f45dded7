import { readFileSync } from 'node:fs';
import { zonedNow } from '@qless/contract/core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTicketCode } from '../apps/api/src/modules/tickets/ticket-code';
import { createUser, TEST_PASSWORD } from '../apps/api/test/support/auth-helpers';
import { createTestDatabase, type TestDatabase } from '../apps/api/test/support/test-db';
import { launch, MOBILE, seriousViolations, shotsDir, snap } from './support/browser';
import { settled } from './support/counter-clerk';
import { nextWeekdayAtTen } from './support/days';
import { type RunningServer, startServer } from './support/server';

/**
 * The counter screen and the queue's setup (issue 19) in French at 360 px, against the real
 * server on PostgreSQL: an admin sets the rules and a counter, checks a booked visitor in at
 * the Today screen (its queue number shows there), opens the counter, adds two walk-ins,
 * calls, starts, finishes, recalls and marks a no-show, transfers, and reads the refusal
 * when nobody is left. The server's clock is pinned to 10:00 in Douala on a weekday, so the
 * day's opening hours and the end-of-day closing never interfere.
 */
const SCREENS = shotsDir('queue');

let tdb: TestDatabase;
let server: RunningServer;
let browser: Browser;
let org: { id: string; name: string; time_zone: string };
let services: { id: string; name: string; name_fr: string | null }[] = [];
let day = '';

async function bookToday(name: string): Promise<string> {
  const db = tdb.database.db;
  const service = services[0];
  if (!service) throw new Error('no service');
  const slot = await db
    .selectFrom('slots')
    .select('id')
    .where('service_id', '=', service.id)
    .where('retired_at', 'is', null)
    .orderBy('start_time')
    .executeTakeFirstOrThrow();
  const code = generateTicketCode();
  await db
    .insertInto('bookings')
    .values({
      organization_id: org.id,
      service_id: service.id,
      slot_id: slot.id,
      booking_date: day,
      seat: 901,
      status: 'confirmed',
      cus_name: name,
      cus_email: 'booked@example.cm',
      phone_number: '+237677009901',
      ticket_code: code,
      confirmed_at: new Date(),
    })
    .execute();
  return code;
}

async function adminPage(
  locale: 'fr-FR' | 'en-GB',
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: MOBILE,
    locale,
    reducedMotion: 'reduce',
    // The API's CSP (script-src 'self') would block injecting axe-core.
    bypassCSP: true,
  });
  const login = await context.request.post(`${server.origin}/api/v1/auth/login`, {
    data: { email: 'queue-admin@e2e.cm', password: TEST_PASSWORD },
  });
  expect(login.status()).toBe(200);
  // The page's timers on a clock the test can move: `settled` skips the main button's settle.
  await context.clock.install();
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('[pageerror]', e.message));
  return { context, page };
}

const noOverflow = (page: Page) =>
  page.evaluate<boolean>('document.documentElement.scrollWidth <= 360');

beforeAll(async () => {
  tdb = await createTestDatabase('postgres');
  if (!tdb.url) throw new Error('no PostgreSQL url');
  const now = nextWeekdayAtTen();
  server = await startServer({ env: { DATABASE_URL: tdb.url, QLESS_FAKE_NOW: now.toISOString() } });
  browser = await launch();
  const db = tdb.database.db;
  // An organization with two services at least (one to transfer to), open on weekdays.
  const rows = await db
    .selectFrom('organizations as o')
    .innerJoin('services as s', 's.organization_id', 'o.id')
    .select([
      'o.id',
      'o.name',
      'o.time_zone',
      's.id as service_id',
      's.name as service_name',
      's.name_fr',
    ])
    .where('s.active', '=', true)
    .orderBy('o.name')
    .orderBy('s.name')
    .execute();
  const byOrg = new Map<string, typeof rows>();
  for (const r of rows) byOrg.set(r.id, [...(byOrg.get(r.id) ?? []), r]);
  const chosen = [...byOrg.values()].find((list) => list.length >= 2);
  if (!chosen?.[0]) throw new Error('no organization with two services');
  org = { id: chosen[0].id, name: chosen[0].name, time_zone: chosen[0].time_zone };
  services = chosen.map((r) => ({ id: r.service_id, name: r.service_name, name_fr: r.name_fr }));
  await db
    .updateTable('organizations')
    .set({ open_days: 127, start_time: '07:00', end_time: '20:00' })
    .where('id', '=', org.id)
    .execute();
  day = zonedNow(org.time_zone, now).date;
  await createUser(db, { email: 'queue-admin@e2e.cm', role: 'org_admin', organizationId: org.id });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await tdb?.cleanup();
});

describe('the counter screen, in French at 360 px', () => {
  it('sets up a counter, checks in, adds walk-ins, calls, serves, recalls, marks a no-show, transfers', async () => {
    const bookedCode = await bookToday('Béatrice Réservée');
    const { context, page } = await adminPage('fr-FR');
    const notice = page.locator('[aria-live="polite"] .alert').first();

    // The setup: rules (one recall allowed) and a counter serving the first service only.
    await page.goto(`${server.origin}/organization/queue/setup`);
    await page.getByRole('heading', { name: 'Réglage de la file', level: 1 }).waitFor();
    await page.getByLabel('Rappels avant de marquer absent').fill('1');
    await page.getByRole('button', { name: 'Enregistrer les règles' }).click();
    await page.getByText('Règles enregistrées.').waitFor();
    await page.getByLabel('Nom du guichet').fill('Guichet 1');
    const firstName = services[0]?.name_fr ?? services[0]?.name ?? '';
    const secondName = services[1]?.name_fr ?? services[1]?.name ?? '';
    await page
      .locator('form', { has: page.getByLabel('Nom du guichet') })
      .getByRole('group', { name: 'Services qu’il sert' })
      .getByLabel(firstName, { exact: true })
      .check();
    await page.getByRole('button', { name: 'Ajouter le guichet' }).click();
    await page.getByText('Guichet 1 ajouté.').waitFor();
    await page.getByTestId('counter-list').getByText('Guichet 1', { exact: true }).waitFor();
    // A second counter for the other service (a transfer needs a counter that serves it).
    await page.getByLabel('Nom du guichet').fill('Guichet 2');
    await page
      .locator('form', { has: page.getByLabel('Nom du guichet') })
      .getByRole('group', { name: 'Services qu’il sert' })
      .getByLabel(secondName, { exact: true })
      .check();
    await page.getByRole('button', { name: 'Ajouter le guichet' }).click();
    await page.getByText('Guichet 2 ajouté.').waitFor();

    // A board link: shown once, opens the public board, then revoked.
    await page.getByLabel('Nom de l’écran').fill('Grande salle');
    await page.getByRole('button', { name: 'Créer un lien d’écran' }).click();
    const link = await page.getByTestId('board-link').inputValue();
    expect(link).toMatch(new RegExp(`^${server.origin}/board/[^/?#]{16,}$`));
    const boardApi = link.replace('/board/', '/api/v1/board/');
    expect((await fetch(boardApi)).status).toBe(200);
    await page.getByTestId('board-list').getByText('Grande salle', { exact: true }).waitFor();
    await snap(page.locator('section', { has: page.getByRole('heading', { name: 'Écrans' }) }), {
      path: `${SCREENS}/queue-setup-boards-360-fr.png`,
    });
    expect(await noOverflow(page)).toBe(true);
    await snap(page, { path: `${SCREENS}/queue-setup-360-fr.png`, fullPage: true });
    await page.getByRole('button', { name: 'Révoquer — Grande salle' }).click();
    await page.getByRole('button', { name: 'Révoquer ce lien' }).click();
    await page.getByText('Le lien de Grande salle ne fonctionne plus.').waitFor();
    expect((await fetch(boardApi)).status).not.toBe(200);

    // The poster: a PDF made in the browser, from its own chunk.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Télécharger l’affiche (PDF)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^qless-poster-.+\.pdf$/);
    const pdf = readFileSync((await download.path()) ?? '');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1')).toContain(`/join/${org.id}`);
    // The navigation names both screens.
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    await page.getByRole('link', { name: 'Guichet', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Réglage de la file' }).waitFor();
    await page.getByRole('button', { name: 'Menu', exact: true }).click();

    // The Today screen: the booked visitor is checked in and gets a queue number.
    await page.goto(`${server.origin}/organization/today`);
    await page.getByLabel('Code du ticket').fill(bookedCode);
    await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
    const bookedNumber = page
      .locator('.checkin-item', { hasText: 'Béatrice Réservée' })
      .getByTestId('queue-number');
    // The number comes with a second read after the check-in's answer: each try waits 5 s
    // for it, the whole 60 s (a CI machine under the full suite answers slowly).
    await expect
      .poll(() => bookedNumber.textContent({ timeout: 5_000 }).catch(() => null), {
        timeout: 60_000,
      })
      .toMatch(/N° [A-Z]-\d{3}/);
    const booked = ((await bookedNumber.textContent()) ?? '').replace(/.*N° /, '').trim();
    await snap(page, { path: `${SCREENS}/queue-today-door-360-fr.png`, fullPage: true });
    await page.getByRole('link', { name: 'Aller à l’écran du guichet' }).click();

    // The counter: pick it, open it, add two walk-ins.
    await page.getByRole('heading', { name: 'Guichet', level: 1 }).waitFor();
    await page.getByLabel('Votre guichet').selectOption({ label: 'Guichet 1' });
    await expect.poll(() => page.getByTestId('counter-state').textContent()).toBe('Fermé');
    await page.getByRole('button', { name: 'Ouvrir', exact: true }).click();
    await expect.poll(() => page.getByTestId('counter-state').textContent()).toBe('Ouvert');
    const walkIn = page.locator('form.queue-walkin');
    for (const name of ['Awa Walk-in', 'Bello Walk-in']) {
      await walkIn.getByLabel('Service').selectOption({ label: firstName });
      await walkIn.getByLabel('Nom').fill(name);
      await walkIn.getByRole('button', { name: 'Ajouter à la file' }).click();
      await walkIn.getByText(new RegExp(`${name} a le numéro [A-Z]-\\d{3}\\.`)).waitFor();
    }
    const line = page.getByTestId('queue-line');
    await expect.poll(() => line.locator('li').count()).toBe(3);
    expect(await line.locator('li').first().textContent()).toContain(booked);
    expect(await line.textContent()).toContain('Sans rendez-vous');
    expect(await noOverflow(page)).toBe(true);
    await snap(page, { path: `${SCREENS}/queue-counter-line-360-fr.png`, fullPage: true });

    // The booked visitor first: called, started, done.
    const held = page.getByTestId('held-visit');
    await page.getByRole('button', { name: 'Appeler le suivant' }).click();
    await held.getByText(booked).waitFor();
    await held.getByText('Appelé').waitFor();
    await expect.poll(() => notice.textContent()).toBe(`${booked} appelé.`);
    await snap(page, { path: `${SCREENS}/queue-counter-called-360-fr.png` });
    expect(await seriousViolations(page)).toEqual([]);
    await settled(page);
    await held.getByRole('button', { name: 'Commencer' }).click();
    await held.getByText('En cours').waitFor();
    await settled(page);
    await held.getByRole('button', { name: 'Terminé' }).click();
    await expect.poll(() => notice.textContent()).toBe(`${booked} terminé.`);
    await expect.poll(() => held.count()).toBe(0);

    // Awa does not come: recalled once (the limit), then marked a no-show.
    await settled(page);
    await page.getByRole('button', { name: 'Appeler le suivant' }).click();
    await held.getByText('Awa Walk-in').waitFor();
    await held.getByRole('button', { name: 'Rappeler' }).click();
    await held.getByText('Rappelé 1 fois (au plus 1)').waitFor();
    await snap(page, { path: `${SCREENS}/queue-counter-recalled-360-fr.png` });
    await held.getByRole('button', { name: 'Absent' }).click();
    await expect.poll(() => notice.textContent()).toMatch(/marqué absent\.$/);
    await expect.poll(() => held.count()).toBe(0);

    // Bello came for the wrong service: sent to the other one's line.
    await page.getByRole('button', { name: 'Appeler le suivant' }).click();
    await held.getByText('Bello Walk-in').waitFor();
    await held.getByLabel('Transférer vers un autre service').selectOption({ label: secondName });
    await held.getByRole('button', { name: 'Transférer', exact: true }).click();
    await expect.poll(() => notice.textContent()).toMatch(/transféré/);
    await expect.poll(() => line.locator('li').count()).toBe(1);
    expect(await line.textContent()).toContain('Bello Walk-in');
    expect(await line.textContent()).toContain(secondName);

    // Nobody left for this counter's service: the refusal, in words.
    await page.getByRole('button', { name: 'Appeler le suivant' }).click();
    await expect
      .poll(() => notice.textContent())
      .toBe('Personne n’attend pour les services de ce guichet.');
    expect(await noOverflow(page)).toBe(true);
    await snap(page, { path: `${SCREENS}/queue-counter-refusal-360-fr.png`, fullPage: true });

    const states = await tdb.database.db
      .selectFrom('visits')
      .select(['customer_name', 'state', 'recalls'])
      .where('organization_id', '=', org.id)
      .execute();
    const rows = states.map((v) => `${v.customer_name} ${v.state} ${v.recalls}`).sort();
    expect(rows).toEqual([
      'Awa Walk-in no_show 1',
      // A transfer ends the visit and opens one in the other service's line.
      'Bello Walk-in transferred 0',
      'Bello Walk-in waiting 0',
      'Béatrice Réservée done 0',
    ]);
    await context.close();

    // The same device remembers its counter; in English the screen reads in English.
    const en = await adminPage('en-GB');
    await en.page.goto(`${server.origin}/organization/queue`);
    await en.page.getByRole('heading', { name: 'Counter', level: 1 }).waitFor();
    await en.page.getByLabel('Your counter').selectOption({ label: 'Guichet 1' });
    await en.page.getByText('Nobody at your counter. Waiting for you: 0').waitFor();
    expect(await noOverflow(en.page)).toBe(true);
    await snap(en.page, { path: `${SCREENS}/queue-counter-360-en.png`, fullPage: true });
    // The same screen on a desk computer.
    await en.page.setViewportSize({ width: 1280, height: 800 });
    await snap(en.page, { path: `${SCREENS}/queue-counter-1280-en.png`, fullPage: true });
    await en.page.setViewportSize(MOBILE);
    await en.page.reload();
    // A string, so this file needs no DOM typings (the root tsconfig is Node-only).
    await expect
      .poll(() =>
        en.page.evaluate<string>(
          `document.querySelector('.queue-counter__pick select')?.selectedOptions[0]?.textContent ?? ''`,
        ),
      )
      .toBe('Guichet 1');
    await en.context.close();
  });

  // After the test above: its Guichet 1, open, whose last calls were two walk-ins.
  it('serves priority visitors by the organization’s ratio, each marked in the line (decision 138)', async () => {
    const { context, page } = await adminPage('fr-FR');
    const firstName = services[0]?.name_fr ?? services[0]?.name ?? '';
    // Queue setup: pregnant women and the elderly first, "1 prioritaire, puis 2 autres".
    await page.goto(`${server.origin}/organization/queue/setup`);
    const fair = page.locator('section', {
      has: page.getByRole('heading', { name: 'Visiteurs prioritaires' }),
    });
    const categories = fair.getByTestId('priority-categories');
    await categories.getByLabel('Personne âgée').check();
    await categories.getByLabel('Femme enceinte').check();
    await fair.getByLabel('Prioritaires appelés à la suite').fill('1');
    await fair.getByLabel('Puis visiteurs non prioritaires').fill('2');
    await fair.getByRole('button', { name: 'Enregistrer les priorités' }).click();
    await fair.getByText('Priorités enregistrées.').waitFor();
    // A ratio half given is refused in words.
    await fair.getByLabel('Puis visiteurs non prioritaires').fill('');
    await fair.getByRole('button', { name: 'Enregistrer les priorités' }).click();
    await fair.getByText('Donnez les deux nombres du ratio ou aucun').waitFor();
    expect(await noOverflow(page)).toBe(true);
    await snap(fair, { path: `${SCREENS}/queue-setup-priority-360-fr.png` });

    // The counter: three walk-ins, then a pregnant woman and an elderly man.
    await page.goto(`${server.origin}/organization/queue`);
    await page.getByLabel('Votre guichet').selectOption({ label: 'Guichet 1' });
    await expect.poll(() => page.getByTestId('counter-state').textContent()).toBe('Ouvert');
    const walkIn = page.locator('form.queue-walkin');
    const people: [string, string | null][] = [
      ['Régine Une', null],
      ['Roger Deux', null],
      ['Rita Trois', null],
      ['Marie Enceinte', 'Femme enceinte'],
      ['Paul Aîné', 'Personne âgée'],
    ];
    for (const [name, category] of people) {
      await walkIn.getByLabel('Service').selectOption({ label: firstName });
      await walkIn.getByLabel('Nom').fill(name);
      if (category)
        await walkIn.getByLabel('Catégorie prioritaire').selectOption({ label: category });
      await walkIn.getByRole('button', { name: 'Ajouter à la file' }).click();
      await walkIn.getByText(new RegExp(`${name} a le numéro [A-Z]-\\d{3}\\.`)).waitFor();
    }
    const line = page.getByTestId('queue-line');
    await line.locator('li', { hasText: 'Marie Enceinte' }).getByText('Femme enceinte').waitFor();
    await line.locator('li', { hasText: 'Paul Aîné' }).getByText('Personne âgée').waitFor();
    // The counter lists them in the order it will call them (its own calls counted).
    const order = ['Marie Enceinte', 'Régine Une', 'Roger Deux', 'Paul Aîné', 'Rita Trois'];
    const listed = (await line.textContent()) ?? '';
    const at = order.map((name) => listed.indexOf(name));
    for (const index of at) expect(index).toBeGreaterThanOrEqual(0);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    expect(await noOverflow(page)).toBe(true);
    await snap(page, { path: `${SCREENS}/queue-counter-priority-360-fr.png`, fullPage: true });

    // This counter's last calls were two others (Awa, Bello): a priority visitor is due, then
    // two others, then the next priority visitor.
    const held = page.getByTestId('held-visit');
    const called: string[] = [];
    for (let i = 0; i < people.length; i += 1) {
      await settled(page);
      await page.getByRole('button', { name: 'Appeler le suivant' }).click();
      await held.getByText('Appelé').waitFor();
      const text = (await held.textContent()) ?? '';
      called.push(people.map(([name]) => name).find((name) => text.includes(name)) ?? text);
      await settled(page);
      await held.getByRole('button', { name: 'Commencer' }).click();
      await held.getByText('En cours').waitFor();
      await settled(page);
      await held.getByRole('button', { name: 'Terminé' }).click();
      await expect.poll(() => held.count()).toBe(0);
    }
    expect(called).toEqual(order);
    await context.close();
  });
});
