import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, MOBILE, seriousViolations, snap } from './support/browser';
import { createOperator, type RunningServer, startServer } from './support/server';

/**
 * Issue 18, points 3 and 8, in French at 360×740, on a server with no SMTP (as many first
 * deployments are): the contact form asks for a contact person and a phone number; the
 * operator sees them, approves, and is told no e-mail went out and given the invitation
 * link (copy, WhatsApp); the new admin's profile has time pickers and Monday to Friday to
 * confirm; the add-service form asks for French first; the Staff page hands over the
 * link too; the operator sees the profile, hours, days and services before verifying.
 */
const SHOTS = '/tmp/shots-18';
mkdirSync(SHOTS, { recursive: true });
const OPERATOR = { email: 'ops@qless.test', password: 'operator passphrase 1' };
const ORG = { name: 'Banque des Savanes', email: 'direction@savanes.cm' };
const ADMIN_PASSWORD = 'a bank passphrase here';

let server: RunningServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  server = await startServer({
    env: { SMTP_URL: '', MAIL_FROM: '' },
    prepare: (env) => {
      // No SMTP at all on this server: the variables are removed, not set.
      delete env.SMTP_URL;
      delete env.MAIL_FROM;
      createOperator(env, OPERATOR);
    },
  });
  browser = await launch();
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
});

async function frenchPage(): Promise<Page> {
  const context = await browser.newContext({
    viewport: MOBILE,
    locale: 'fr-CM',
    reducedMotion: 'reduce',
    // axe-core is injected into the page; the app's CSP would refuse it.
    bypassCSP: true,
  });
  contexts.push(context);
  await context.addInitScript("localStorage.setItem('qless.lang', 'fr')");
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('[pageerror]', e.message));
  return page;
}

const go = (page: Page, path: string) => page.goto(`${server.origin}/#${path}`);

async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(
    "document.querySelector('.site-header')?.style.setProperty('position', 'static')",
  );
  await snap(page, { path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Signs in through the API from the page (its cookie is then the page's). */
async function apiPost(page: Page, path: string, body: unknown): Promise<number> {
  await go(page, '/');
  return page.evaluate(
    async ([p, b]) =>
      (
        await fetch(p as string, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(b),
        })
      ).status,
    [path, body],
  );
}

describe('invitations without e-mail, and the organization forms, in French at 360 px (issue 18)', () => {
  let inviteLink = '';
  let ops: Page;
  let admin: Page;

  it('the contact form asks for a contact person and a phone; the operator sees them and gets the link', async () => {
    const visitor = await frenchPage();
    await go(visitor, '/contact');
    await visitor.getByLabel("Nom de l'organisation").fill(ORG.name);
    await visitor.getByLabel('E-mail').fill(ORG.email);
    await visitor.getByLabel('Personne à contacter').fill('Awa Bello');
    await visitor.getByLabel('Numéro de téléphone').fill('677 12 34 56');
    await shot(visitor, 'point8-contact-form-360-fr');
    await visitor.getByRole('button', { name: 'Envoyer' }).click();
    await visitor.getByText('Demande envoyée\u00a0! Nous vous répondrons très vite.').waitFor();

    ops = await frenchPage();
    expect(await apiPost(ops, '/api/v1/auth/login', OPERATOR)).toBe(200);
    await go(ops, '/platform');
    const card = ops.locator('.console-card', { hasText: ORG.name });
    await card.getByText('Contact\u00a0: Awa Bello').waitFor();
    await card.getByText('Téléphone\u00a0: 677 12 34 56').waitFor();
    await card.getByRole('button', { name: 'Approuver' }).click();
    // The request's person and mobile fill the first admin's fields.
    expect(await card.getByLabel('Nom du premier administrateur').inputValue()).toBe('Awa Bello');
    await card.getByRole('button', { name: 'Créer et inviter' }).click();
    const result = ops.getByTestId('invitation-result');
    await result
      .getByText(
        `L’envoi d’e-mails n’est pas configuré sur ce serveur : aucun e-mail n’a été envoyé à ${ORG.email}.`,
        { exact: false },
      )
      .waitFor();
    await result
      .getByText('Un SMS avec le lien est en file d’attente pour le 677 12 34 56.')
      .waitFor();
    expect(await ops.getByText(/Invitation envoyée|a été envoyée/).count()).toBe(0);
    inviteLink = await result.getByLabel('Lien d’invitation').inputValue();
    expect(inviteLink).toMatch(/\/#\/invite\/[A-Za-z0-9_-]{43}$/);
    const share = await result
      .getByRole('link', { name: 'Partager sur WhatsApp' })
      .getAttribute('href');
    expect(share?.startsWith('https://wa.me/?text=')).toBe(true);
    expect(decodeURIComponent(share?.slice('https://wa.me/?text='.length) ?? '')).toContain(
      inviteLink,
    );
    await result.getByRole('button', { name: 'Copier le lien' }).waitFor();
    await shot(ops, 'point3-console-approved-no-mail-360-fr');
    expect(await seriousViolations(ops)).toEqual([]);
  });

  it('the new admin: time pickers, Monday to Friday to confirm, French first in the service form', async () => {
    admin = await frenchPage();
    const token = inviteLink.slice(inviteLink.lastIndexOf('/') + 1);
    expect(
      await apiPost(admin, '/api/v1/auth/invitations/accept', { token, password: ADMIN_PASSWORD }),
    ).toBe(200);
    await go(admin, '/organization');
    await admin
      .getByText(
        'Confirmez vos jours d’ouverture : une nouvelle organisation ouvre du lundi au vendredi.',
      )
      .waitFor();

    await go(admin, '/organization/profile');
    await admin.getByRole('heading', { name: 'Mettre à jour le profil' }).waitFor();
    const start = admin.getByLabel('Heure de début');
    expect(await start.getAttribute('type')).toBe('time');
    expect(await start.inputValue()).toBe('08:00');
    const checked = await admin
      .locator('input[name="open_days"]:checked')
      .evaluateAll((boxes) => boxes.map((b) => (b as unknown as { value: string }).value));
    expect(checked).toEqual(['1', '2', '3', '4', '5']);
    await admin.getByLabel('Adresse', { exact: true }).fill('Avenue Kennedy');
    await admin.getByLabel('Ville', { exact: true }).fill('Yaoundé');
    await admin.getByLabel('Catégorie', { exact: true }).fill('Banque');
    await start.fill('07:30');
    // Saving without the confirmation is refused in words.
    await admin.getByRole('button', { name: 'Enregistrer les modifications' }).click();
    await admin.getByText('Cochez la case pour confirmer vos jours d’ouverture.').waitFor();
    // Not the spec's time-format failure: no time was wrong.
    await admin.getByText(/Vérifiez les champs signalés ci-dessous/).waitFor();
    expect(await admin.getByText(/HH:MM:SS/).count()).toBe(0);
    await shot(admin, 'point8-profile-days-to-confirm-360-fr');
    await admin.getByLabel('Ce sont bien nos jours d’ouverture').check();
    await admin.getByRole('button', { name: 'Enregistrer les modifications' }).click();
    await admin
      .getByText("Informations de l'organisation mises à jour avec succès\u00a0!")
      .waitFor();
    // Confirmed: the box is gone, the days stay Monday to Friday, 07:30 kept.
    await expect.poll(() => admin.getByLabel('Ce sont bien nos jours d’ouverture').count()).toBe(0);
    expect(await start.inputValue()).toBe('07:30');

    await go(admin, '/organization/service');
    await admin.getByRole('button', { name: 'Ajouter un service' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Ajouter un nouveau service' });
    const fields = await dialog
      .locator('input[name], textarea[name]')
      .evaluateAll((els) => els.map((e) => (e as unknown as { name: string }).name));
    // French first; English is the optional part.
    expect(fields.slice(0, 2)).toEqual(['service_name_fr', 'service_description_fr']);
    await dialog.getByLabel('Nom du service', { exact: true }).fill('Ouverture de compte');
    await dialog.getByLabel('Description', { exact: true }).fill('Ouvrir un compte courant');
    await dialog.getByLabel('Durée en minutes').fill('30');
    await dialog.getByText('En anglais (facultatif)').waitFor();
    await shot(admin, 'point8-service-form-french-first-360-fr');
    await dialog.getByRole('button', { name: 'Créer' }).click();
    await admin.getByText('Service ajouté avec succès\u00a0!').waitFor();
    await admin.locator('tr', { hasText: 'Ouverture de compte' }).first().waitFor();
  });

  it('the Staff page hands the admin the link when no e-mail can go out', async () => {
    await go(admin, '/organization/staff');
    await admin.getByRole('heading', { name: 'Équipe' }).waitFor();
    await admin.getByLabel('E-mail').fill('guichet1@savanes.cm');
    await admin.getByLabel('Nom', { exact: true }).fill('Paul');
    await admin.getByLabel('Numéro de mobile (facultatif)').fill('699 00 11 22');
    await admin.getByRole('button', { name: 'Inviter', exact: true }).click();
    const result = admin.getByTestId('invitation-result');
    await result.getByText('Compte créé pour guichet1@savanes.cm.').waitFor();
    await result
      .getByText('aucun e-mail n’a été envoyé à guichet1@savanes.cm', { exact: false })
      .waitFor();
    await result
      .getByText('Un SMS avec le lien est en file d’attente pour le 699 00 11 22.')
      .waitFor();
    expect(await result.getByLabel('Lien d’invitation').inputValue()).toMatch(/\/#\/invite\//);
    const row = admin.locator('.staff-card[data-email="guichet1@savanes.cm"]');
    await row.getByText('Invitation en attente', { exact: true }).waitFor();
    expect(await admin.getByText(/Invitation envoyée/).count()).toBe(0);
    await shot(admin, 'point3-staff-invited-no-mail-360-fr');
    expect(await seriousViolations(admin)).toEqual([]);
  });

  it('the operator sees the profile, hours, days and services before verifying', async () => {
    await go(ops, '/platform');
    await ops.getByRole('tab', { name: 'Organisations' }).click();
    const card = ops.locator('.console-card', { hasText: ORG.name });
    const details = card.locator('.org-details');
    await details.getByText('Avenue Kennedy, Yaoundé').waitFor();
    await details.getByText('07:30–17:00').waitFor();
    await details.getByText('Ouverture de compte').waitFor();
    expect(await details.locator('dd').nth(2).textContent()).toMatch(/^lun\.?, mar\.?/);
    await shot(ops, 'point8-console-organization-360-fr');
    await card.getByRole('button', { name: 'Vérifier' }).click();
    await card.getByRole('button', { name: 'Retirer la vérification' }).waitFor();
  });
});
