import type { VisitSlip } from '@qless/contract';
import { describe, expect, it } from 'vitest';
import { hashHallToken } from '../../src/modules/queue/hall-links.js';
import { useCounterApp } from '../support/checkin-helpers.js';
import { queueApi } from '../support/queue-helpers.js';
import { PINNED_NOW } from '../support/test-app.js';

/**
 * The kiosk at the door and the slip (decision 135): links made and revoked like board links;
 * the kiosk reads its branch only and issues numbers (the same press twice: one number; one
 * open visit per phone; a kiosk tapped in a loop is slowed); the counter prints a walk-in's slip;
 * a slip's code opens the turn once typed, whatever its case and dashes.
 */
describe('the kiosk and its slip', () => {
  const s = useCounterApp();
  const { ctx } = s;
  const q = queueApi(() => s.app);
  let token = '';
  let kioskId = '';

  const issue = (body: Record<string, unknown>, at = token, ip = '10.35.0.1') =>
    q.call('POST', `/kiosk/${at}/visits`, null, body, ip);
  const minutesAfter = (minutes: number) =>
    new Date(Date.parse(PINNED_NOW) + minutes * 60_000).toISOString();
  let press = 0;
  const newPress = () => `press-${process.pid}-${++press}-0000`;

  it('the admin makes a kiosk link for a 58 mm printer (token shown once, hash kept), lists it', async () => {
    await q.createCounter(ctx.adminA.headers, 'Guichet 1', [ctx.a.serviceId]);
    const made = await q.call('POST', '/queue/kiosks', ctx.adminA.headers, {
      name: 'Entrée',
      paper: '58mm',
    });
    expect(made.statusCode, made.body).toBe(201);
    const body = made.json<{ kiosk: { kiosk_id: string; paper: string }; token: string }>();
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.kiosk.paper).toBe('58mm');
    token = body.token;
    kioskId = body.kiosk.kiosk_id;
    const row = await s.db
      .selectFrom('kiosks')
      .select('token_hash')
      .where('id', '=', kioskId)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashHallToken('kiosk', token));
    const list = await q.call('GET', '/queue/kiosks', ctx.adminA.headers);
    expect(list.json().kiosks.map((k: { kiosk_id: string }) => k.kiosk_id)).toEqual([kioskId]);
    // Staff cannot make one; a bad paper is named.
    expect(
      (await q.call('POST', '/queue/kiosks', ctx.staffA.headers, { name: 'X' })).statusCode,
    ).toBe(403);
    const bad = await q.call('POST', '/queue/kiosks', ctx.adminA.headers, {
      name: 'X',
      paper: 'A4',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('INVALID_PAPER');
  });

  it('reads the branch’s services and its printer’s paper, and nothing of any visitor', async () => {
    const walkIn = await q.call('POST', '/queue/visits', ctx.staffA.headers, {
      service_id: ctx.a.serviceId,
      name: 'Mbarga Secret',
      phone: '677001122',
    });
    expect(walkIn.statusCode, walkIn.body).toBe(201);
    const info = await q.call('GET', `/kiosk/${token}`, null);
    expect(info.statusCode, info.body).toBe(200);
    const body = info.json();
    expect(body.open).toBe(true);
    expect(body.paper).toBe('58mm');
    expect(body.services.map((x: { service_id: string }) => x.service_id)).toContain(
      ctx.a.serviceId,
    );
    expect(body.services.map((x: { service_id: string }) => x.service_id)).not.toContain(
      ctx.b.serviceId,
    );
    expect(info.body).not.toMatch(/Mbarga|677001122/);
    // A board's token does not open a kiosk (nor a malformed one).
    const board = await q.call('POST', '/queue/boards', ctx.adminA.headers, { name: 'TV' });
    const boardToken = board.json().token as string;
    expect((await q.call('GET', `/kiosk/${boardToken}`, null)).json().code).toBe('KIOSK_NOT_FOUND');
    expect((await q.call('GET', '/kiosk/short', null)).statusCode).toBe(404);
  });

  it('issues a number with a slip (QR link, short code); the same press again gets the same number', async () => {
    // A minute after the staff's walk-in: the line's order is by arrival.
    s.clock.set(minutesAfter(1));
    const requestId = newPress();
    const first = await issue({ service_id: ctx.a.serviceId, request_id: requestId, locale: 'fr' });
    expect(first.statusCode, first.body).toBe(201);
    const slip = first.json<{ slip: VisitSlip }>().slip;
    expect(slip.number).toMatch(/^[A-Z]-\d{3}$/);
    expect(slip.position).toBe(2);
    expect(slip.follow_code).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(slip.follow_url).toMatch(new RegExp(`/f/${slip.follow_code}$`));
    expect(slip.visit_url).toMatch(new RegExp(`/visit/${slip.visit_id}#k=`));
    const again = await issue({ service_id: ctx.a.serviceId, request_id: requestId, locale: 'fr' });
    expect(again.statusCode).toBe(201);
    expect(again.json().slip.visit_id).toBe(slip.visit_id);
    const stored = await s.db
      .selectFrom('visits')
      .select(['source', 'customer_name', 'locale'])
      .where('id', '=', slip.visit_id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ source: 'kiosk', customer_name: '', locale: 'fr' });

    // The code opens the turn, typed in any case with its dash; the key it answers reads it.
    const typed = `${slip.follow_code?.slice(0, 4).toLowerCase()}-${slip.follow_code?.slice(4)}`;
    const followed = await q.call('GET', `/follow/${typed}`, null);
    expect(followed.statusCode, followed.body).toBe(200);
    expect(followed.json().visit_id).toBe(slip.visit_id);
    const turn = await s.app.inject({
      method: 'GET',
      url: `/api/v1/visits/${slip.visit_id}`,
      headers: { 'x-visit-key': followed.json().key },
    });
    expect(turn.statusCode, turn.body).toBe(200);
    expect(turn.json().turn.number).toBe(slip.number);
    expect((await q.call('GET', '/follow/ABCD', null)).json().code).toBe('INVALID_FOLLOW_CODE');
    expect((await q.call('GET', '/follow/ZZZZ-ZZZZ', null)).json().code).toBe(
      'FOLLOW_CODE_NOT_FOUND',
    );
  });

  it('the same press sent twice at once enters once', async () => {
    const requestId = newPress();
    const answers = await Promise.all(
      [1, 2, 3].map(() => issue({ service_id: ctx.a.serviceId, request_id: requestId })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((a) => a.json().slip.visit_id)).size).toBe(1);
  });

  it('one open visit per phone in the branch; a bad phone, service or press id is named', async () => {
    const ok = await issue({
      service_id: ctx.a.serviceId,
      request_id: newPress(),
      phone: '677 55 44 33',
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const twice = await issue({
      service_id: ctx.a.serviceId,
      request_id: newPress(),
      phone: '677554433',
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('PHONE_ALREADY_IN_LINE');
    expect(twice.body).not.toContain(ok.json().slip.number);
    const badPhone = await issue({
      service_id: ctx.a.serviceId,
      request_id: newPress(),
      phone: '12',
    });
    expect(badPhone.json().code).toBe('INVALID_PHONE');
    const otherBranch = await issue({ service_id: ctx.b.serviceId, request_id: newPress() });
    expect(otherBranch.statusCode).toBe(404);
    const noPress = await issue({ service_id: ctx.a.serviceId, request_id: 'x' });
    expect(noPress.json().code).toBe('INVALID_REQUEST_ID');
  });

  it('asks the priority question where the branch serves some first, and keeps the answer (decision 138)', async () => {
    const quiet = (await q.call('GET', `/kiosk/${token}`, null)).json();
    expect(quiet).toMatchObject({ priority_categories: [], premium_label: null });
    const refused = await issue({
      service_id: ctx.a.serviceId,
      request_id: newPress(),
      priority_category: 'elderly',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('PRIORITY_CATEGORY_NOT_SERVED');
    await s.db
      .updateTable('organizations')
      .set({ queue_priority_categories: ['elderly', 'premium'], queue_premium_label: 'Clients Or' })
      .where('id', '=', ctx.a.orgId)
      .execute();
    try {
      const asked = (await q.call('GET', `/kiosk/${token}`, null)).json();
      expect(asked).toMatchObject({
        priority_categories: ['elderly', 'premium'],
        premium_label: 'Clients Or',
      });
      const taken = await issue({
        service_id: ctx.a.serviceId,
        request_id: newPress(),
        priority_category: 'elderly',
      });
      expect(taken.statusCode, taken.body).toBe(201);
      const visit = await s.db
        .selectFrom('visits')
        .select(['priority_category', 'source'])
        .where('id', '=', taken.json<{ slip: VisitSlip }>().slip.visit_id)
        .executeTakeFirstOrThrow();
      expect(visit).toEqual({ priority_category: 'elderly', source: 'kiosk' });
      const notServed = await issue({
        service_id: ctx.a.serviceId,
        request_id: newPress(),
        priority_category: 'pregnant',
      });
      expect(notServed.json().code).toBe('PRIORITY_CATEGORY_NOT_SERVED');
    } finally {
      await s.db
        .updateTable('organizations')
        .set({ queue_priority_categories: [], queue_premium_label: null })
        .where('id', '=', ctx.a.orgId)
        .execute();
    }
  });

  it('the counter prints a walk-in’s slip; another branch’s staff cannot', async () => {
    const added = await q.call('POST', '/queue/visits', ctx.staffA.headers, {
      service_id: ctx.a.serviceId,
      name: 'Mama Ewane',
    });
    const visitId = added.json().visit.visit_id as string;
    const slip = await q.call('GET', `/queue/visits/${visitId}/slip`, ctx.staffA.headers);
    expect(slip.statusCode, slip.body).toBe(200);
    expect(slip.json().slip.number).toBe(added.json().visit.number);
    expect(slip.json().slip.follow_code).toMatch(/^[0-9A-Z]{8}$/);
    expect(slip.body).not.toContain('Mama Ewane');
    const cross = await q.call('GET', `/queue/visits/${visitId}/slip`, ctx.staffB.headers);
    expect(cross.statusCode).toBe(404);
  });

  it('a kiosk tapped in a loop is slowed at 12 a minute; a revoked link issues nothing', async () => {
    // A minute of its own (the clock is pinned): 12 numbers, then "wait a minute".
    s.clock.set(minutesAfter(5));
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) {
      statuses.push(
        (await issue({ service_id: ctx.a.serviceId, request_id: newPress() })).statusCode,
      );
    }
    expect(statuses).toEqual([...Array(12).fill(201), 429, 429]);
    const revoked = await s.app.inject({
      method: 'DELETE',
      url: `/api/v1/queue/kiosks/${kioskId}`,
      headers: ctx.adminA.headers,
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json().kiosk.revoked_at).not.toBeNull();
    expect((await q.call('GET', `/kiosk/${token}`, null)).json().code).toBe('KIOSK_NOT_FOUND');
    expect((await issue({ service_id: ctx.a.serviceId, request_id: newPress() })).statusCode).toBe(
      404,
    );
  });
});
