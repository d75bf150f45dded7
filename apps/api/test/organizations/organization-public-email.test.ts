import { describe, expect, it } from 'vitest';
import { useStack } from '../support/app-fixture.js';
import { signedIn } from '../support/auth-helpers.js';

// Issue 18, point 12: the public organization list showed the organization's e-mail, which
// for an organization approved from a contact request is its first admin's sign-in e-mail.
describe("the organization's public e-mail", () => {
  const s = useStack({ fixture: false });

  it('is never the sign-in e-mail unless the admin publishes it; the admin publishes and withdraws a contact address', async () => {
    const db = s.database.db;
    const operator = await signedIn(s.app, db, { email: 'ops@qless.cm', role: 'operator' });
    const contact = await s.app.inject({
      method: 'POST',
      url: '/api/v1/contact',
      payload: {
        user_name: 'Clinique de la Paix',
        user_email: 'direction@clinique-paix.cm',
        message: 'Please onboard us',
      },
      remoteAddress: '10.30.0.1',
    });
    expect(contact.statusCode).toBe(201);
    const approved = await s.app.inject({
      method: 'POST',
      url: `/api/v1/platform/contact-requests/${contact.json().id}/approve`,
      headers: operator.headers,
      payload: { city: 'Yaoundé', category: 'hospital' },
    });
    expect(approved.statusCode).toBe(201);
    const orgId = approved.json().organization.organization_id as string;
    const admin = await signedIn(s.app, db, {
      email: 'second-admin@clinique-paix.cm',
      role: 'org_admin',
      organizationId: orgId,
    });
    const profile = (public_email: string | null | undefined) =>
      s.app.inject({
        method: 'PATCH',
        url: '/api/v1/organization/update/profile',
        headers: admin.headers,
        payload: {
          name: 'Clinique de la Paix',
          location: 'Bastos',
          start_time: '08:00',
          end_time: '17:00',
          // Saving the days confirms them: a new organization is listed only then (decision 019).
          open_days: [1, 2, 3, 4, 5],
          ...(public_email === undefined ? {} : { public_email }),
        },
      });
    expect((await profile(undefined)).statusCode).toBe(200);
    const verified = await s.app.inject({
      method: 'POST',
      url: `/api/v1/platform/organizations/${orgId}/verify`,
      headers: operator.headers,
    });
    expect(verified.statusCode).toBe(200);

    const publicEmail = async () => {
      const list = await s.app.inject({ url: '/api/v1/organizations' });
      expect(list.statusCode).toBe(200);
      const one = await s.app.inject({ url: `/api/v1/organizations/${orgId}` });
      expect(one.statusCode).toBe(200);
      const listed = list
        .json()
        .organizations.find((o: { organization_id: string }) => o.organization_id === orgId);
      expect(listed, 'listed publicly').toBeDefined();
      return { listed: listed.email as string, list: list.body, one: one.body };
    };
    const before = await publicEmail();
    expect(before.listed).toBe('');
    expect(before.list).not.toContain('direction@clinique-paix.cm');
    expect(before.one).not.toContain('direction@clinique-paix.cm');

    const published = await profile('Accueil@Clinique-Paix.cm');
    expect(published.statusCode).toBe(200);
    expect(published.json().organizationData).toMatchObject({
      email: 'direction@clinique-paix.cm',
      public_email: 'Accueil@Clinique-Paix.cm',
    });
    expect((await publicEmail()).listed).toBe('Accueil@Clinique-Paix.cm');
    // The spec's client sends `email` (its read-only field) with every save: not a choice.
    const spec = await s.app.inject({
      method: 'PATCH',
      url: '/api/v1/organization/update/profile',
      headers: admin.headers,
      payload: {
        name: 'Clinique de la Paix',
        start_time: '08:00',
        end_time: '17:00',
        email: 'direction@clinique-paix.cm',
      },
    });
    expect(spec.statusCode).toBe(200);
    expect((await publicEmail()).listed).toBe('Accueil@Clinique-Paix.cm');

    const bad = await profile('not an address');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('INVALID_EMAIL');

    // Chosen on purpose, the sign-in address may be the public one.
    expect((await profile('direction@clinique-paix.cm')).statusCode).toBe(200);
    expect((await publicEmail()).listed).toBe('direction@clinique-paix.cm');

    expect((await profile('')).statusCode).toBe(200);
    expect((await publicEmail()).listed).toBe('');
    expect((await profile(null)).statusCode).toBe(200);
    expect((await publicEmail()).listed).toBe('');
  });
});
