import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  linkToken,
  type SmtpCapture,
  startSmtpCapture,
} from '../apps/api/test/support/smtp-capture';
import { ARTIFACTS, launch, MOBILE, seriousViolations, snap } from './support/browser';
import { createOperator, type RunningServer, startServer } from './support/server';

const OPERATOR = { email: 'ops@qless.test', password: 'operator passphrase 1' };
const ORG = { name: 'Clinique Bonne Santé', email: 'direction@bonne-sante.cm' };
const ADMIN_PASSWORD = 'my clinic passphrase';
const NEW_PASSWORD = 'a fresh clinic passphrase';

let server: RunningServer;
let smtp: SmtpCapture;
let browser: Browser;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  server = await startServer({
    env: {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Qless <no-reply@qless.test>',
      MAIL_WORKER_INTERVAL_MS: '200',
    },
    // The first operator is made by the CLI, on the server's fresh database, before it starts.
    prepare: (env) => {
      createOperator(env, OPERATOR);
    },
  });
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.close();
});

async function newPage(
  locale: 'en-GB' | 'fr-FR' = 'en-GB',
): Promise<{ context: BrowserContext; page: Page }> {
  // bypassCSP lets axe-core be injected; the app itself runs under its CSP elsewhere.
  const context = await browser.newContext({
    viewport: MOBILE,
    reducedMotion: 'reduce',
    locale,
    bypassCSP: true,
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('[pageerror]', e.message));
  return { context, page };
}

const go = (page: Page, path: string) => page.goto(`${server.origin}/#${path}`);

/** Signs in through the API from the page (the session cookie is set for the page). */
async function apiSignIn(page: Page, email: string, password: string): Promise<void> {
  await go(page, '/');
  const status = await page.evaluate(
    async ([e, p]) =>
      (
        await fetch('/api/v1/auth/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: e, password: p }),
        })
      ).status,
    [email, password],
  );
  expect(status).toBe(200);
}

const meStatus = (page: Page) =>
  page.evaluate(async () => {
    const res = await fetch('/api/v1/auth/me');
    return {
      status: res.status,
      email: res.ok ? ((await res.json()) as { user: { email: string } }).user.email : null,
    };
  });

async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  await snap(page, { path: `${ARTIFACTS}/onboarding-${name}.png`, fullPage });
}

describe('onboarding against the real server and a real SMTP server', () => {
  it('contact request → operator approves in /platform → invitation by SMTP → password set → signed in', async () => {
    // An organization asks to join through the contact form.
    const visitor = await newPage();
    await go(visitor.page, '/contact');
    await visitor.page.getByLabel('Organization name').fill(ORG.name);
    await visitor.page.getByLabel('Email').fill(ORG.email);
    await visitor.page.getByLabel('Contact person').fill('Marie Ngo');
    await visitor.page.getByLabel('Phone number').fill('677 12 34 56');
    await visitor.page.getByLabel('Message').fill('We would like our patients to book.');
    await visitor.page.getByRole('button', { name: 'Submit' }).click();
    await visitor.page.getByText("Request sent! We'll get back to you soon.").waitFor();
    await visitor.context.close();

    // The operator signs in on the Login page and approves it in the console.
    const ops = await newPage();
    await go(ops.page, '/login');
    await ops.page.getByLabel('Email').fill(OPERATOR.email);
    await ops.page.getByLabel('Password').fill(OPERATOR.password);
    await ops.page.getByRole('button', { name: 'Log In' }).click();
    // An operator lands on the console.
    await ops.page.waitForURL(/\/platform$/);
    await ops.page.getByRole('heading', { name: 'Operator console' }).waitFor();
    const card = ops.page.locator('.console-card', { hasText: ORG.name });
    await card.waitFor();
    await card.getByRole('button', { name: 'Approve' }).click();
    await expect
      .poll(() => card.getByLabel('Email of the first admin').inputValue())
      .toBe(ORG.email);
    await card.getByLabel('City').fill('Douala');
    await card.getByLabel('Category').fill('hospital');
    await card.getByRole('button', { name: 'Create and invite' }).click();
    await ops.page
      .getByText(`${ORG.name} was created, with an account for ${ORG.email}.`)
      .waitFor();
    expect(await seriousViolations(ops.page)).toEqual([]);

    // The invitation arrives at the SMTP server; its link opens the page that sets the password.
    const mail = await smtp.waitFor(ORG.email, /invitation/);
    const token = linkToken(mail.text, 'invite');
    expect(mail.text).toContain(`${server.origin}/#/invite/${token}`);

    const admin = await newPage();
    await admin.page.goto(`${server.origin}/#/invite/${token}`);
    await admin.page.getByRole('heading', { name: 'Set up your account' }).waitFor();
    await admin.page.getByText(`You are invited to ${ORG.name}.`).waitFor();
    expect(await admin.page.getByLabel('Email').inputValue()).toBe(ORG.email);
    // Two different passwords are caught before anything is sent.
    await admin.page.getByLabel('New password', { exact: true }).fill(ADMIN_PASSWORD);
    await admin.page.getByLabel('New password again').fill('something else entirely');
    await admin.page.getByRole('button', { name: 'Activate my account' }).click();
    await admin.page.getByText('The two passwords are not the same.').waitFor();
    await admin.page.getByLabel('New password again').fill(ADMIN_PASSWORD);
    await admin.page.getByLabel('Your name').fill('Dr Ekane');
    await admin.page.getByRole('button', { name: 'Activate my account' }).click();
    await admin.page.waitForURL(/\/organization\/$/);
    expect(await meStatus(admin.page)).toEqual({ status: 200, email: ORG.email });

    // The link is spent.
    const again = await newPage();
    await again.page.goto(`${server.origin}/#/invite/${token}`);
    await again.page
      .getByText('This link has already been used. Log in with your password.')
      .waitFor();
    await shot(again.page, 'invite-used-360-en');
    await again.context.close();

    // Forgot password → reset link by SMTP → new password → Login with a message.
    const forgot = await newPage();
    await go(forgot.page, '/login');
    await forgot.page.getByRole('link', { name: 'Forgot your password?' }).click();
    await forgot.page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await forgot.page.getByLabel('Email').fill(ORG.email);
    await forgot.page.getByRole('button', { name: 'Send the link' }).click();
    await forgot.page
      .getByText('If an account exists for this e-mail, we have sent it a link.')
      .waitFor();
    const reset = await smtp.waitFor(ORG.email, /Reset your Qless password/);
    const resetToken = linkToken(reset.text, 'reset-password');
    await forgot.page.goto(`${server.origin}/#/reset-password/${resetToken}`);
    await forgot.page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await forgot.page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await forgot.page.getByLabel('New password again').fill(NEW_PASSWORD);
    await forgot.page.getByRole('button', { name: 'Save new password' }).click();
    await forgot.page.waitForURL(/\/login$/);
    await forgot.page
      .getByText('Your password has been changed. Log in with your new password.')
      .waitFor();
    await shot(forgot.page, 'login-after-reset-360-en');
    await forgot.page.getByLabel('Email').fill(ORG.email);
    await forgot.page.getByLabel('Password').fill(NEW_PASSWORD);
    await forgot.page.getByRole('button', { name: 'Log In' }).click();
    await forgot.page.waitForURL(/\/organization\/$/);
    expect((await meStatus(forgot.page)).status).toBe(200);
    // The session opened by the invitation ended with the reset.
    expect((await meStatus(admin.page)).status).toBe(401);

    // The reset link is spent too.
    await forgot.page.goto(`${server.origin}/#/reset-password/${resetToken}`);
    await forgot.page.getByLabel('New password', { exact: true }).fill('yet another passphrase');
    await forgot.page.getByLabel('New password again').fill('yet another passphrase');
    await forgot.page.getByRole('button', { name: 'Save new password' }).click();
    await forgot.page.getByText('This link has already been used.').waitFor();

    await forgot.context.close();
    await admin.context.close();
    await ops.context.close();
  });

  it('refuses the console to signed-out visitors and to organization admins, in words', async () => {
    const anon = await newPage();
    await go(anon.page, '/platform');
    await anon.page.getByText('You are not logged in.').waitFor();
    await anon.page.getByRole('link', { name: 'Login' }).last().click();
    await anon.page.waitForURL(/\/login$/);
    await anon.context.close();

    const admin = await newPage();
    await apiSignIn(admin.page, ORG.email, NEW_PASSWORD);
    await go(admin.page, '/platform');
    await admin.page
      .getByText('This console is for the Qless platform team. Your account cannot open it.')
      .waitFor();
    expect(await admin.page.getByRole('tab').count()).toBe(0);
    await admin.context.close();
  });

  it('an admin invites staff from the staff screen; the staff member sets a password', async () => {
    const { context, page } = await newPage();
    await apiSignIn(page, ORG.email, NEW_PASSWORD);
    await go(page, '/organization/staff');
    await page.getByRole('heading', { name: 'Staff' }).waitFor();
    await page.getByLabel('Email').fill('kofi@bonne-sante.cm');
    await page.getByLabel('Name').fill('Kofi');
    // An admin invites counter staff or a branch manager (decision 024), never another admin:
    // admins are the operators' call. Staff is the default.
    const role = page.getByLabel('Role');
    expect(
      await role.locator('option').evaluateAll((o) => o.map((x) => x.getAttribute('value'))),
    ).toEqual(['staff', 'branch_manager']);
    expect(await role.inputValue()).toBe('staff');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByText('Account created for kofi@bonne-sante.cm.').waitFor();
    // With SMTP the mail is queued, never said "sent" before it left (issue 18, point 3).
    await page.getByText(/^The invitation e-mail to kofi@bonne-sante\.cm is queued/).waitFor();
    const row = page.locator('.staff-card[data-email="kofi@bonne-sante.cm"]');
    await row.getByText('Invitation pending', { exact: true }).waitFor();
    // Its own row has no disable button.
    expect(
      await page.locator(`.staff-card[data-email="${ORG.email}"]`).getByRole('button').count(),
    ).toBe(0);
    const token = linkToken((await smtp.waitFor('kofi@bonne-sante.cm')).text, 'invite');
    await row.getByRole('button', { name: 'Disable' }).click();
    await page.getByText('kofi@bonne-sante.cm can no longer sign in.').waitFor();
    await row.getByRole('button', { name: 'Enable' }).click();
    await page.getByText('kofi@bonne-sante.cm can sign in again.').waitFor();
    await context.close();

    const staff = await newPage();
    await staff.page.goto(`${server.origin}/#/invite/${token}`);
    await staff.page.getByLabel('New password', { exact: true }).fill('counter passphrase');
    await staff.page.getByLabel('New password again').fill('counter passphrase');
    await staff.page.getByRole('button', { name: 'Activate my account' }).click();
    // Counter staff land on Today inside the organization area.
    await staff.page.waitForURL(/\/organization\//);
    expect(await meStatus(staff.page)).toEqual({ status: 200, email: 'kofi@bonne-sante.cm' });
    await staff.context.close();
  });

  it('screenshots of every onboarding screen at 360 px, in English and French', async () => {
    // Fresh links and a pending request to show.
    const setup = await newPage();
    await apiSignIn(setup.page, OPERATOR.email, OPERATOR.password);
    await setup.page.evaluate(async () => {
      await fetch('/api/v1/contact', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          user_name: 'Mairie de Bafoussam',
          user_email: 'etat-civil@bafoussam.cm',
          message: 'Nous voulons proposer les rendez-vous pour les actes de naissance.',
        }),
      });
    });
    await setup.context.close();

    for (const [lang, locale] of [
      ['en', 'en-GB'],
      ['fr', 'fr-FR'],
    ] as const) {
      const ops = await newPage(locale);
      await apiSignIn(ops.page, OPERATOR.email, OPERATOR.password);
      await go(ops.page, '/platform');
      const card = ops.page.locator('.console-card', { hasText: 'Mairie de Bafoussam' });
      await card.waitFor();
      await shot(ops.page, `platform-requests-360-${lang}`);
      await card.getByRole('button').first().click();
      await card.locator('form').waitFor();
      await shot(ops.page, `platform-approve-360-${lang}`);
      const tabs = ops.page.getByRole('tab');
      await tabs.nth(1).click();
      await ops.page.locator('.console-card', { hasText: ORG.name }).waitFor();
      // The demo data makes this list long: the first screen is what matters.
      await shot(ops.page, `platform-organizations-360-${lang}`, false);
      await tabs.nth(2).click();
      const mail = ops.page.locator('.console-card', { hasText: ORG.email }).first();
      await mail.waitFor();
      await mail.locator('summary').click();
      await shot(ops.page, `platform-outbox-360-${lang}`);
      await tabs.nth(3).click();
      await ops.page
        .locator('.console-panel .empty-state, .console-panel .console-card')
        .first()
        .waitFor();
      await shot(ops.page, `platform-payments-360-${lang}`);
      expect(await seriousViolations(ops.page)).toEqual([]);
      await ops.context.close();

      const anon = await newPage(locale);
      await go(anon.page, '/platform');
      await anon.page.locator('.signed-out-box').waitFor();
      await shot(anon.page, `platform-signed-out-360-${lang}`);
      await go(anon.page, '/login');
      await anon.page.locator('a[href="/forgot-password"]').waitFor();
      await shot(anon.page, `login-360-${lang}`);
      await go(anon.page, '/forgot-password');
      await anon.page.locator('input[name="email"]').fill('nobody@example.cm');
      await anon.page.locator('button[type="submit"]').click();
      await anon.page.locator('.alert--success').waitFor();
      await shot(anon.page, `forgot-password-360-${lang}`);
      await go(anon.page, `/reset-password/${'x'.repeat(43)}`);
      await anon.page.locator('input[name="password"]').fill('short');
      await anon.page.locator('button[type="submit"]').click();
      await anon.page.locator('.field__error').waitFor();
      await shot(anon.page, `reset-password-360-${lang}`);
      await go(anon.page, `/invite/${'x'.repeat(43)}`);
      await anon.page.locator('.alert--error').waitFor();
      await shot(anon.page, `invite-invalid-360-${lang}`);
      await anon.context.close();

      // A live invitation to look at (re-sent to the staff member, which replaces nothing used).
      const admin = await newPage(locale);
      await apiSignIn(admin.page, ORG.email, NEW_PASSWORD);
      await admin.page.evaluate(async (email) => {
        await fetch('/api/v1/organization/staff', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, name: 'Awa', role: 'staff' }),
        });
      }, `awa-${lang}@bonne-sante.cm`);
      await go(admin.page, '/organization/staff');
      await admin.page.locator(`.staff-card[data-email="awa-${lang}@bonne-sante.cm"]`).waitFor();
      await shot(admin.page, `staff-360-${lang}`);
      expect(await seriousViolations(admin.page)).toEqual([]);
      await go(admin.page, '/platform');
      await admin.page.locator('.alert--error').waitFor();
      await shot(admin.page, `platform-refused-360-${lang}`);
      await admin.context.close();

      const invited = await newPage(locale);
      const token = linkToken((await smtp.waitFor(`awa-${lang}@bonne-sante.cm`)).text, 'invite');
      await go(invited.page, `/invite/${token}`);
      await invited.page.locator('input[name="password"]').waitFor();
      await shot(invited.page, `invite-360-${lang}`);
      expect(await seriousViolations(invited.page)).toEqual([]);
      await invited.context.close();
    }
  });
});
