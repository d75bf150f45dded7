import { join } from 'node:path';
import { zonedNow } from '@qless/contract/core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedbackLinks } from '../apps/api/src/modules/feedback/feedback-links';
import { createTestDatabase, type TestDatabase } from '../apps/api/test/support/test-db';
import { ARTIFACTS, launch, MOBILE, seriousViolations, snap } from './support/browser';
import { nextMonday } from './support/days';
import { type RunningServer, startServer } from './support/server';

/**
 * The feedback link of an SMS after a visit (issue 20), at 360 px: the page arrives with its
 * question in the HTML, in the visit's language; five choices and a comment, then thanks; the
 * same link again says it was received; a forged link and an expired one say so. The visits
 * are written straight into the database (the API tests cover the SMS that carries the link).
 */
const TZ = 'Africa/Douala';
const START = `${nextMonday(zonedNow(TZ, new Date()).date)}T11:00:00+01:00`;
const DAY = 86_400_000;

let tdb: TestDatabase;
let server: RunningServer;
let browser: Browser;
let links: FeedbackLinks;
let target: { orgId: string; orgName: string; serviceId: string };

/** A visit of the demo organization that ended done, in `locale`; its link's token. */
async function doneVisit(locale: 'en' | 'fr', number: number, expiresIn = 7 * DAY) {
  const now = new Date();
  const visit = await tdb.database.db
    .insertInto('visits')
    .values({
      organization_id: target.orgId,
      service_id: target.serviceId,
      visit_date: START.slice(0, 10),
      letter: 'Z',
      number,
      source: 'staff',
      customer_name: 'Nkolo',
      phone: '+237677000222',
      locale,
      arrived_at: now,
      queued_at: now,
      state: 'done',
      ended_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return {
    visitId: visit.id,
    token: links.tokenFor(visit.id, new Date(Date.parse(START) + expiresIn)),
  };
}

beforeAll(async () => {
  tdb = await createTestDatabase('postgres');
  if (!tdb.url) throw new Error('no PostgreSQL url');
  server = await startServer({
    env: { DATABASE_URL: tdb.url, NODE_ENV: 'test', QLESS_FAKE_NOW: START },
  });
  browser = await launch();
  const db = tdb.database.db;
  // The server made the signing secret at start; this reads the same one.
  links = await FeedbackLinks.load(db);
  const row = await db
    .selectFrom('organizations as o')
    .innerJoin('services as s', 's.organization_id', 'o.id')
    .select(['o.id', 'o.name', 's.id as service_id'])
    .where('s.active', '=', true)
    .orderBy('o.name')
    .executeTakeFirstOrThrow();
  target = { orgId: row.id, orgName: row.name, serviceId: row.service_id };
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await tdb?.cleanup();
});

describe('the feedback link, at 360 px', () => {
  it('asks in the visit’s language, takes one answer with its comment as text, then thanks', async () => {
    const { visitId, token } = await doneVisit('fr', 1);
    // Server-rendered with its question (a French phone asks for French).
    const first = await fetch(`${server.origin}/feedback/${token}`, {
      headers: { 'accept-language': 'fr-CM,fr' },
    });
    expect(first.status).toBe(200);
    const html = await first.text();
    expect(html).toContain('Comment s’est passée votre visite ?');
    expect(html).toContain('id="qless-data"');

    // axe-core is injected as an inline script, which the page's CSP refuses.
    const context = await browser.newContext({
      viewport: MOBILE,
      locale: 'fr-FR',
      bypassCSP: true,
    });
    const page = await context.newPage();
    await page.goto(`${server.origin}/feedback/${token}`);
    await page.getByRole('heading', { name: 'Comment s’est passée votre visite ?' }).waitFor();
    // Taps reach React once the page is live (hydrated).
    await page.locator('html[data-live]').waitFor({ state: 'attached' });
    // Each choice is a radio with its number and its word.
    const choices = page.getByRole('radio');
    expect(await choices.count()).toBe(5);
    await snap(page, { path: join(ARTIFACTS, 'feedback-360-fr.png'), fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);

    // The language switch works on this page too.
    await page.locator('.lang-switch__select').selectOption('en');
    await page.getByRole('heading', { name: 'How was your visit?' }).waitFor();
    await snap(page, { path: join(ARTIFACTS, 'feedback-360-en.png') });
    await page.locator('.lang-switch__select').selectOption('fr');
    await page.getByRole('heading', { name: 'Comment s’est passée votre visite ?' }).waitFor();

    // Sent without a rating: said, nothing sent.
    await page.getByRole('button', { name: 'Envoyer' }).click();
    await page.getByText('Choisissez une note de 1 à 5.').waitFor();
    await page.getByRole('radio', { name: '4 – Bien' }).check({ force: true });
    // Chosen: the notice that one was missing goes.
    await page.getByText('Choisissez une note de 1 à 5.').waitFor({ state: 'detached' });
    const comment = '<script>alert(1)</script> Accueil très rapide, merci';
    await page.getByLabel('Un commentaire (facultatif)').fill(comment);
    await page.getByText(`${comment.length}/500 caractères`).waitFor();
    await snap(page, { path: join(ARTIFACTS, 'feedback-360-fr-filled.png'), fullPage: true });
    await page.getByRole('button', { name: 'Envoyer' }).click();
    await page.getByRole('heading', { name: 'Merci !' }).waitFor();
    await snap(page, { path: join(ARTIFACTS, 'feedback-360-fr-thanks.png') });

    const row = await tdb.database.db
      .selectFrom('visit_feedback')
      .select(['rating', 'comment'])
      .where('visit_id', '=', visitId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ rating: 4, comment });

    // The same link again: already received.
    await page.reload();
    await page.getByRole('heading', { name: 'Merci, avis déjà reçu' }).waitFor();
    await context.close();
  });

  it('follows the visit’s language on a phone set to another, and says when a link is forged or expired', async () => {
    const { token } = await doneVisit('fr', 2);
    const context = await browser.newContext({ viewport: MOBILE, locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${server.origin}/feedback/${token}`);
    // Rendered in English (the phone's language), then the visit's French once live.
    await page.getByRole('heading', { name: 'Comment s’est passée votre visite ?' }).waitFor();

    const forged = `${token.slice(0, 40)}${token[40] === 'A' ? 'B' : 'A'}${token.slice(41)}`;
    const res = await page.goto(`${server.origin}/feedback/${forged}`);
    expect(res?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Ce lien n’est pas valide' }).waitFor();

    const expired = await doneVisit('fr', 3, -DAY);
    await page.goto(`${server.origin}/feedback/${expired.token}`);
    await page.getByRole('heading', { name: 'Ce lien a expiré' }).waitFor();
    expect(await page.getByRole('link', { name: "Aller à l'accueil" }).count()).toBe(1);
    await snap(page, { path: join(ARTIFACTS, 'feedback-360-fr-expired.png') });
    await context.close();
  });
});
