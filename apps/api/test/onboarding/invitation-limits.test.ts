import { describe, expect, it } from 'vitest';
import { useStack } from '../support/app-fixture.js';
import { bearer, signedIn, signIn } from '../support/auth-helpers.js';
import { createFixture } from '../support/fixtures.js';
import { PINNED_NOW } from '../support/test-app.js';

const HOUR = 60 * 60_000;

// Issue 18, point 11: invite and re-send queued an e-mail each, without any limit, to
// addresses the admin typed, with text the admin chose.
describe('invitation e-mails are limited', () => {
  const s = useStack({
    fixture: false,
    env: { INVITATIONS_PER_ORG_HOUR: '5', INVITATIONS_PER_ORG_DAY: '7' },
  });

  const invite = (headers: { authorization: string }, email: string) =>
    s.app.inject({
      method: 'POST',
      url: '/api/v1/organization/staff',
      headers,
      payload: { email, role: 'staff' },
    });
  const resend = (headers: { authorization: string }, id: string) =>
    s.app.inject({ method: 'POST', url: `/api/v1/organization/staff/${id}/resend`, headers });
  const invitationsTo = async (email: string) =>
    (
      await s.database.db
        .selectFrom('outbox')
        .select('id')
        .where('kind', '=', 'invitation')
        .where('to_address', '=', email)
        .execute()
    ).length;

  it('one address gets at most 3 invitations a day, invite and re-sends together (429 TOO_MANY_INVITATIONS)', async () => {
    const { orgId } = await createFixture(s.database, new Date(PINNED_NOW), 'addr');
    const admin = await signedIn(s.app, s.database.db, {
      email: 'admin@addr.cm',
      role: 'org_admin',
      organizationId: orgId,
    });
    const first = await invite(admin.headers, 'target@elsewhere.cm');
    expect(first.statusCode).toBe(201);
    const id = first.json().member.id as string;
    expect((await resend(admin.headers, id)).statusCode).toBe(200);
    expect((await resend(admin.headers, id)).statusCode).toBe(200);
    const refused = await resend(admin.headers, id);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('TOO_MANY_INVITATIONS');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await invitationsTo('target@elsewhere.cm')).toBe(3);

    // The next day (signed in again: a session idle a day has ended), one more.
    s.clock.advance(24 * HOUR);
    const again = bearer(await signIn(s.app, 'admin@addr.cm'));
    expect((await resend(again, id)).statusCode).toBe(200);
    expect(await invitationsTo('target@elsewhere.cm')).toBe(4);
  });

  it('an organization sends at most its hourly and daily number; another organization is not held up', async () => {
    // One hour into a day three days on: the next hour is still in the same day's window.
    const later = new Date(PINNED_NOW).getTime() + 3 * 24 * HOUR;
    s.clock.set(new Date(Math.floor(later / (24 * HOUR)) * 24 * HOUR + HOUR));
    const now = s.clock.now();
    const { orgId: orgA } = await createFixture(s.database, now, 'org-a');
    const { orgId: orgB } = await createFixture(s.database, now, 'org-b');
    const adminA = await signedIn(s.app, s.database.db, {
      email: 'admin@org-a.cm',
      role: 'org_admin',
      organizationId: orgA,
    });
    const adminB = await signedIn(s.app, s.database.db, {
      email: 'admin@org-b.cm',
      role: 'org_admin',
      organizationId: orgB,
    });

    for (let i = 0; i < 5; i += 1) {
      expect((await invite(adminA.headers, `person${i}@spam.cm`)).statusCode).toBe(201);
    }
    const hourly = await invite(adminA.headers, 'person5@spam.cm');
    expect(hourly.statusCode).toBe(429);
    expect(hourly.json().code).toBe('TOO_MANY_INVITATIONS');
    expect(await invitationsTo('person5@spam.cm')).toBe(0);
    // The same admin re-sending is counted in the same budget.
    const members = await s.app.inject({
      method: 'GET',
      url: '/api/v1/organization/staff',
      headers: adminA.headers,
    });
    const pending = members
      .json()
      .staff.find((m: { email: string }) => m.email === 'person0@spam.cm');
    expect((await resend(adminA.headers, pending.id)).statusCode).toBe(429);

    expect((await invite(adminB.headers, 'someone@org-b.cm')).statusCode).toBe(201);

    // Next hour: two more, then the day's 7 are spent.
    s.clock.advance(HOUR);
    expect((await invite(adminA.headers, 'person6@spam.cm')).statusCode).toBe(201);
    expect((await invite(adminA.headers, 'person7@spam.cm')).statusCode).toBe(201);
    const daily = await invite(adminA.headers, 'person8@spam.cm');
    expect(daily.statusCode).toBe(429);
    expect(daily.json().code).toBe('TOO_MANY_INVITATIONS');
  });
});
