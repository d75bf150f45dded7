import { createHmac } from 'node:crypto';
import { feedbackInfoResponseSchema, feedbackSummarySchema } from '@qless/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { feedbackSummary } from '../../src/modules/feedback/feedback.repository.js';
import { FeedbackLinks } from '../../src/modules/feedback/feedback-links.js';
import { feedbackText } from '../../src/modules/feedback/feedback-messages.js';
import { gsmLength } from '../../src/providers/sms/sms-text.js';
import { serializeRequest } from '../../src/request-log.js';
import { TODAY, useCounterApp } from '../support/checkin-helpers.js';
import { queueApi } from '../support/queue-helpers.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const LINK = /http:\/\/qless\.test\/feedback\/([A-Za-z0-9_-]{48})$/;

describe('a word after the visit', () => {
  const s = useCounterApp();
  const { ctx } = s;
  const q = queueApi(() => s.app);
  let counterId: string;

  beforeAll(async () => {
    // No recall needed before a no-show here (decision 118: the organization's setting).
    await s.db
      .updateTable('organizations')
      .set({ queue_max_recalls: 0 })
      .where('id', '=', ctx.a.orgId)
      .execute();
    counterId = (await q.openCounter(ctx.adminA.headers, 'Guichet F', [ctx.a.serviceId]))
      .counter_id;
  });

  /** A walk-in served to the end at the counter (the line holds only them). */
  async function served(
    name: string,
    phone?: string,
    locale?: 'en' | 'fr',
    end: 'done' | 'no-show' = 'done',
  ): Promise<string> {
    const visit = await q.walkIn(ctx.staffA.headers, ctx.a.serviceId, name, phone, locale);
    s.clock.advance(MINUTE);
    const called = await q.act(ctx.staffA.headers, counterId, 'call-next');
    expect(called.json().visit.visit_id).toBe(visit.visit_id);
    if (end === 'done') {
      expect((await q.act(ctx.staffA.headers, counterId, 'start')).statusCode).toBe(200);
      s.clock.advance(4 * MINUTE);
    }
    const ended = await q.act(ctx.staffA.headers, counterId, end);
    expect(ended.statusCode, ended.body).toBe(200);
    return visit.visit_id;
  }

  const feedbackSms = (visitId?: string) => {
    let query = s.db
      .selectFrom('outbox')
      .select(['to_address', 'text_body', 'locale', 'dedupe_key', 'channel', 'status'])
      .where('kind', '=', 'visit_feedback');
    if (visitId) query = query.where('dedupe_key', '=', `visit:${visitId}:feedback`);
    return query.execute();
  };

  async function tokenOf(visitId: string): Promise<string> {
    const [sms] = await feedbackSms(visitId);
    const token = LINK.exec(sms?.text_body ?? '')?.[1];
    if (!token) throw new Error(`no feedback link in ${sms?.text_body}`);
    return token;
  }

  const get = (token: string) => s.app.inject({ method: 'GET', url: `/api/v1/feedback/${token}` });
  const post = (token: string, payload: unknown, remoteAddress = '10.0.0.1') =>
    s.app.inject({
      method: 'POST',
      url: `/api/v1/feedback/${token}`,
      payload: payload as Record<string, unknown>,
      remoteAddress,
    });

  it('a visit done with a phone gets exactly one SMS with its link, in its language, in one part', async () => {
    const en = await served('Ada', '677001101', 'en');
    const fr = await served('Béa', '677001102', 'fr');
    for (const [visitId, locale] of [
      [en, 'en'],
      [fr, 'fr'],
    ] as const) {
      const rows = await feedbackSms(visitId);
      expect(rows).toHaveLength(1);
      const [sms] = rows;
      expect(sms).toMatchObject({
        channel: 'sms',
        locale,
        to_address: expect.stringMatching(/^\+2376770011/),
      });
      expect(sms?.text_body).toMatch(LINK);
      expect(gsmLength(sms?.text_body ?? '')).toBeLessThanOrEqual(160);
      // The organization is named (shortened if need be).
      expect(sms?.text_body).toContain(
        locale === 'fr' ? 'Merci de votre visite chez' : 'Thank you for visiting',
      );
    }
  });

  it('operators see the SMS as a customer message: number masked, no text (no link)', async () => {
    const res = await s.app.inject({
      method: 'GET',
      url: '/api/v1/platform/outbox?page=1&page_size=100',
      headers: ctx.operator.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const listed = res
      .json<{
        messages: { kind: string; to: string; text_body: string | null; customer: boolean }[];
      }>()
      .messages.filter((m) => m.kind === 'visit_feedback' || m.kind.startsWith('queue_'));
    expect(listed.length).toBeGreaterThanOrEqual(2);
    for (const m of listed) {
      expect(m).toMatchObject({
        customer: true,
        text_body: null,
        to: expect.stringContaining('••'),
      });
    }
    expect(res.body).not.toContain('/feedback/');
  });

  it('call next while serving ends the served visit done: it gets its SMS too', async () => {
    const visit = await q.walkIn(ctx.staffA.headers, ctx.a.serviceId, 'Chi', '677001103', 'en');
    s.clock.advance(MINUTE); // first come, first served
    const next = await q.walkIn(ctx.staffA.headers, ctx.a.serviceId, 'Dan');
    await q.act(ctx.staffA.headers, counterId, 'call-next');
    await q.act(ctx.staffA.headers, counterId, 'start');
    const again = await q.act(ctx.staffA.headers, counterId, 'call-next');
    expect(again.json().visit.visit_id).toBe(next.visit_id);
    expect(await feedbackSms(visit.visit_id)).toHaveLength(1);
    // Dan (no phone) ends as a no-show: nothing for him either way.
    await q.act(ctx.staffA.headers, counterId, 'no-show');
    expect(await feedbackSms(next.visit_id)).toHaveLength(0);
  });

  it('no SMS for a visit done without a phone, nor for a no-show with one', async () => {
    const before = (await feedbackSms()).length;
    const noPhone = await served('Eli');
    const noShow = await served('Fay', '677001104', 'fr', 'no-show');
    expect(await feedbackSms(noPhone)).toHaveLength(0);
    expect(await feedbackSms(noShow)).toHaveLength(0);
    expect(await feedbackSms()).toHaveLength(before);
  });

  it('the text keeps the link whole and shortens the organization until it fits', () => {
    const link = `http://qless.test/feedback/${'A'.repeat(48)}`;
    const long = 'Centre Hospitalier Universitaire de Yaoundé — Service de Gynécologie Obstétrique';
    for (const locale of ['en', 'fr'] as const) {
      const text = feedbackText({ locale, organization: long, link });
      expect(text.endsWith(link)).toBe(true);
      expect(gsmLength(text)).toBeLessThanOrEqual(160);
    }
    expect(feedbackText({ locale: 'en', organization: 'Mairie de Douala 1er', link })).toBe(
      `Thank you for visiting Mairie de Douala 1er! How was it? Rate 1 to 5: ${link}`,
    );
    expect(feedbackText({ locale: 'fr', organization: 'Mairie de Douala 1er', link })).toBe(
      `Merci de votre visite chez Mairie de Douala 1er ! Votre avis de 1 à 5 : ${link}`,
    );
  });

  it('the link opens once: the page asks, one answer is kept, a second is refused', async () => {
    const visitId = await served('Gus', '677001105', 'fr');
    const token = await tokenOf(visitId);
    const info = await get(token);
    expect(info.statusCode, info.body).toBe(200);
    expect(info.headers['cache-control']).toBe('no-store');
    expect(feedbackInfoResponseSchema.parse(info.json())).toEqual({
      organization_name: expect.stringContaining('Guichet Unique'),
      service_name: expect.any(String),
      service_name_fr: expect.toBeOneOf([expect.any(String), null]),
      visit_date: TODAY,
      locale: 'fr',
      expires_at: new Date(s.clock.now().getTime() + 7 * DAY).toISOString(),
      given: false,
    });
    // The customer's name and phone are not in it.
    expect(info.body).not.toContain('Gus');
    expect(info.body).not.toContain('677001105');

    // Line breaks are text; the ends are trimmed.
    const comment = '  <script>alert("x")</script> & <b>merci</b>\n\tÀ bientôt  ';
    const given = await post(token, { rating: 4, comment });
    expect(given.statusCode, given.body).toBe(201);
    expect(given.json()).toEqual({ given: true });
    const row = await s.db
      .selectFrom('visit_feedback')
      .selectAll()
      .where('visit_id', '=', visitId)
      .executeTakeFirstOrThrow();
    // Stored as the text written (trimmed), never escaped or stripped: shown as text.
    expect(row).toMatchObject({
      rating: 4,
      comment: '<script>alert("x")</script> & <b>merci</b>\n\tÀ bientôt',
      organization_id: ctx.a.orgId,
      service_id: ctx.a.serviceId,
      visit_date: TODAY,
      locale: 'fr',
    });

    expect((await get(token)).json().given).toBe(true);
    const twice = await post(token, { rating: 1 });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('FEEDBACK_ALREADY_GIVEN');
    const rows = await s.db
      .selectFrom('visit_feedback')
      .select('rating')
      .where('visit_id', '=', visitId)
      .execute();
    expect(rows).toEqual([{ rating: 4 }]);
  });

  it('two answers sent at once: one kept, the other 409', async () => {
    const token = await tokenOf(await served('Hal', '677001106', 'en'));
    const answers = await Promise.all([
      post(token, { rating: 5 }),
      post(token, { rating: 2 }),
      post(token, { rating: 3 }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409]);
  });

  it('refuses a forged, altered or cut token the same way, before reading anything', async () => {
    const visitId = await served('Ivo', '677001107', 'en');
    const token = await tokenOf(visitId);
    const flip = (i: number) =>
      `${token.slice(0, i)}${token[i] === 'A' ? 'B' : 'A'}${token.slice(i + 1)}`;
    // The same form signed with another secret, for the same visit and a later expiry.
    const signed = Buffer.alloc(20);
    Buffer.from(visitId.replaceAll('-', ''), 'hex').copy(signed);
    signed.writeUInt32BE(Math.floor(s.clock.now().getTime() / 1000) + 30 * 86_400, 16);
    const mac = createHmac('sha256', 'not-the-secret')
      .update('visit-feedback:v1:')
      .update(signed)
      .digest()
      .subarray(0, 16);
    const otherSecret = Buffer.concat([signed, mac]).toString('base64url');
    const forged = [
      flip(0), // the visit id
      flip(20), // the expiry
      flip(40), // the signature
      token.slice(0, 47),
      `${token}A`,
      otherSecret,
      'not-a-token',
      '%00',
    ];
    for (const bad of forged) {
      const read = await get(bad);
      expect(read.statusCode, bad).toBe(404);
      expect(read.json().code, bad).toBe('FEEDBACK_LINK_INVALID');
      const write = await post(bad, { rating: 5 });
      expect(write.statusCode, bad).toBe(404);
      expect(write.json().code, bad).toBe('FEEDBACK_LINK_INVALID');
    }
    // A no-show's visit signed with the right secret still opens nothing.
    const noShow = await served('Jo', '677001108', 'en', 'no-show');
    const links = await FeedbackLinks.load(s.db);
    const noShowToken = links.tokenFor(noShow, new Date(s.clock.now().getTime() + DAY));
    expect((await get(noShowToken)).json().code).toBe('FEEDBACK_LINK_INVALID');
    expect(
      await s.db
        .selectFrom('visit_feedback')
        .select('id')
        .where('visit_id', 'in', [visitId, noShow])
        .execute(),
    ).toEqual([]);
  });

  it('refuses a rating outside 1-5 or not whole, and a comment too long', async () => {
    const token = await tokenOf(await served('Kim', '677001109', 'en'));
    const cases: [unknown, string][] = [
      [{ rating: 0 }, 'INVALID_RATING'],
      [{ rating: 6 }, 'INVALID_RATING'],
      [{ rating: 3.5 }, 'INVALID_RATING'],
      [{ rating: '4' }, 'INVALID_RATING'],
      [{}, 'INVALID_RATING'],
      [{ rating: 4, comment: 'é'.repeat(501) }, 'INVALID_COMMENT'],
      [{ rating: 4, comment: 42 }, 'INVALID_COMMENT'],
      // Not text: an unpaired surrogate, a control character (a NUL, PostgreSQL refuses).
      [{ rating: 4, comment: 'a\uD800b' }, 'INVALID_COMMENT'],
      [{ rating: 4, comment: 'a\u0007b' }, 'INVALID_COMMENT'],
    ];
    for (const [body, code] of cases) {
      const res = await post(token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code, JSON.stringify(body)).toBe(code);
    }
    // 500 characters (once trimmed) pass; blank is no comment.
    const ok = await post(token, { rating: 2, comment: ` ${'é'.repeat(500)} ` });
    expect(ok.statusCode, ok.body).toBe(201);
    const blank = await tokenOf(await served('Lea', '677001110', 'en'));
    expect((await post(blank, { rating: 3, comment: '   ' })).statusCode).toBe(201);
    const rows = await s.db
      .selectFrom('visit_feedback as f')
      .innerJoin('visits as v', 'v.id', 'f.visit_id')
      .select(['v.customer_name', 'f.comment'])
      .where('v.customer_name', 'in', ['Kim', 'Lea'])
      .orderBy('v.customer_name')
      .execute();
    expect(rows).toEqual([
      { customer_name: 'Kim', comment: 'é'.repeat(500) },
      { customer_name: 'Lea', comment: null },
    ]);
  });

  it('an answer counts against its client address: the 31st in an hour is refused', async () => {
    const token = await tokenOf(await served('Max', '677001111', 'en'));
    expect((await post(token, { rating: 5 }, '10.9.9.9')).statusCode).toBe(201);
    for (let i = 1; i < 30; i += 1) {
      expect((await post(token, { rating: 5 }, '10.9.9.9')).statusCode).toBe(409);
    }
    const spent = await post(token, { rating: 5 }, '10.9.9.9');
    expect(spent.statusCode).toBe(429);
    expect(spent.json().code).toBe('RATE_LIMITED');
    // A forged link is refused before it is counted; another address is not held up.
    expect((await post('x'.repeat(48), { rating: 5 }, '10.9.9.9')).statusCode).toBe(404);
    expect((await post(token, { rating: 5 }, '10.9.9.10')).statusCode).toBe(409);
  });

  it('request logs never carry the token', () => {
    const token = 'Q'.repeat(48);
    for (const url of [
      `/api/v1/feedback/${token}`,
      `/feedback/${token}`,
      `/feedback/${token}?x=1`,
      // A waitlist offer's short link (decision 023) names a person's entry the same way.
      `/w/${token}`,
    ]) {
      const line = serializeRequest({ url, method: 'GET', host: 'h', ip: '1.2.3.4' } as never);
      expect(line.url).not.toContain(token);
      expect(line.url).toContain('[redacted]');
    }
  });

  it('Insight reads the count, the average, each rating and the latest comments as text', async () => {
    const all = await feedbackSummary(s.db, [ctx.a.orgId, ctx.b.orgId], TODAY, TODAY);
    expect(feedbackSummarySchema.parse(all)).toEqual(all);
    // Gus 4, Hal one of 5/2/3, Kim 2, Lea 3, Max 5.
    expect(all.count).toBe(5);
    expect(all.distribution[4]).toBe(1);
    expect(Object.values(all.distribution).reduce((a, b) => a + b, 0)).toBe(5);
    const ratings = await s.db.selectFrom('visit_feedback').select('rating').execute();
    const mean = ratings.reduce((a, r) => a + r.rating, 0) / ratings.length;
    expect(all.average).toBe(Math.round(mean * 10) / 10);
    // Comments only, latest first: Kim's (later), then Gus's.
    expect(all.comments.map((c) => c.comment)).toEqual([
      'é'.repeat(500),
      '<script>alert("x")</script> & <b>merci</b>\n\tÀ bientôt',
    ]);
    expect(all.comments[1]).toMatchObject({
      rating: 4,
      date: TODAY,
      organization_id: ctx.a.orgId,
      service_id: ctx.a.serviceId,
      service: expect.any(String),
    });
    // Other days, another organization, another service: nothing.
    const none = {
      count: 0,
      average: null,
      distribution: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 },
      comments: [],
    };
    expect(await feedbackSummary(s.db, [ctx.a.orgId], '2026-03-05', '2026-03-31')).toEqual(none);
    expect(await feedbackSummary(s.db, [ctx.b.orgId], TODAY, TODAY)).toEqual(none);
    expect(await feedbackSummary(s.db, [], TODAY, TODAY)).toEqual(none);
    expect(
      await feedbackSummary(s.db, [ctx.a.orgId], TODAY, TODAY, { serviceId: ctx.a.otherServiceId }),
    ).toEqual(none);
    // The counter that served them: all at this one, none at another.
    expect((await feedbackSummary(s.db, [ctx.a.orgId], TODAY, TODAY, { counterId })).count).toBe(5);
    const other = await q.createCounter(ctx.adminA.headers, 'Guichet G', [ctx.a.serviceId]);
    expect(
      await feedbackSummary(s.db, [ctx.a.orgId], TODAY, TODAY, { counterId: other.counter_id }),
    ).toEqual(none);
  });

  it('a link works for 7 days after the visit, then answers 410 expired', async () => {
    const token = await tokenOf(await served('Ned', '677001112', 'en'));
    s.clock.advance(7 * DAY - 1000);
    expect((await get(token)).statusCode).toBe(200);
    s.clock.advance(1000);
    const read = await get(token);
    expect(read.statusCode).toBe(410);
    expect(read.json().code).toBe('FEEDBACK_LINK_EXPIRED');
    const write = await post(token, { rating: 5 });
    expect(write.statusCode).toBe(410);
    expect(write.json().code).toBe('FEEDBACK_LINK_EXPIRED');
    s.clock.advance(-7 * DAY);
  });
});
