// engines: postgres and pglite — joins under the queue lock and the phone's counters (in memory on PGlite, rows on PostgreSQL)
import { describe, expect, it } from 'vitest';
import { useCounterApp } from '../support/checkin-helpers.js';
import { queueApi } from '../support/queue-helpers.js';
import { PINNED_NOW } from '../support/test-app.js';

/**
 * Joining from a basic phone (decision 136): the gateway posts each text (form-encoded, its
 * secret in the path); the branch's word and the day's code join the line and answer the
 * number, the place and the estimate by SMS; LATE steps back once; LEAVE leaves; the same
 * message twice is answered once; wrong secrets, wrong codes, foreign numbers, a phone already
 * in line and a phone joining again and again are refused.
 */
describe('joining by SMS', () => {
  const s = useCounterApp();
  const { ctx } = s;
  const q = queueApi(() => s.app);
  let inboundPath = '';
  let today = '';
  let n = 0;

  const lastId = new Map<string, string>();
  const post = (text: string, from: string, id = `m-${++n}`, path = inboundPath) => {
    lastId.set(from, id);
    return s.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ from, to: '8080', text, id, date: '2026-03-04' }).toString(),
    });
  };
  const text = async (message: string, from: string) => {
    const res = await post(message, from);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ outcome: string }>().outcome;
  };
  /** The answer queued to a phone's latest text (its outbox row, by the text's dedupe key). */
  const answerTo = async (phone: string) => {
    const inbound = await s.db
      .selectFrom('sms_inbound')
      .select('id')
      .where('provider_message_id', '=', lastId.get(phone) ?? '')
      .executeTakeFirstOrThrow();
    const row = await s.db
      .selectFrom('outbox')
      .select('text_body')
      .where('dedupe_key', '=', `sms-in:${inbound.id}`)
      .executeTakeFirstOrThrow();
    return row.text_body ?? '';
  };
  const answersTo = async (phone: string) =>
    (
      await s.db
        .selectFrom('outbox')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('to_address', '=', phone)
        .where('kind', '=', 'queue_sms_answer')
        .executeTakeFirstOrThrow()
    ).n;

  it('the admin gives the branch a word; the day’s code follows it; a word names one branch', async () => {
    await q.createCounter(ctx.adminA.headers, 'Guichet 1', [ctx.a.serviceId]);
    // The operator reads the gateway's address; nobody else does.
    const url = await q.call('GET', '/platform/sms/inbound', ctx.operator.headers);
    expect(url.statusCode).toBe(200);
    inboundPath = new URL(url.json().url as string).pathname;
    expect(inboundPath).toMatch(/^\/api\/v1\/sms\/inbound\/[A-Za-z0-9_-]{43}$/);
    expect((await q.call('GET', '/platform/sms/inbound', ctx.adminA.headers)).statusCode).toBe(403);
    const set = await q.call('PUT', '/queue/sms-join', ctx.adminA.headers, { keyword: ' akwa ' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().keyword).toBe('AKWA');
    expect(set.json().number).toBe('8080');
    const code = set.json().today as string;
    expect(code).toMatch(/^AKWA \d{3}$/);
    // The branch has two services: the visitor adds the letter shown beside the word.
    const line = await q.call('GET', '/queue/today', ctx.staffA.headers);
    const service = (line.json().services as { service_id: string; planned_letter: string }[]).find(
      (x) => x.service_id === ctx.a.serviceId,
    );
    today = `${code} ${service?.planned_letter}`;
    // The board in the hall shows what to text today, and where.
    const board = await q.call('POST', '/queue/boards', ctx.adminA.headers, { name: 'TV' });
    const shown = await q.call('GET', `/board/${board.json().token}/join-code`, null);
    expect(shown.json().sms).toEqual({ text: code, number: '8080' });
    // Without the letter, the answer lists them.
    const which = await post(code, '+237677100009');
    expect(which.json().outcome).toBe('which_service');
    expect(await answerTo('+237677100009')).toMatch(/ajoutez la lettre du service: [A-Z] /);
    const bad = await q.call('PUT', '/queue/sms-join', ctx.adminA.headers, { keyword: 'A B' });
    expect(bad.json().code).toBe('INVALID_SMS_KEYWORD');
    const other = await q.call(
      'PUT',
      `/queue/sms-join?organization_id=${ctx.b.orgId}`,
      ctx.operator.headers,
      { keyword: 'AKWA' },
    );
    expect(other.statusCode).toBe(409);
    expect(other.json().code).toBe('SMS_KEYWORD_TAKEN');
    expect((await q.call('GET', '/queue/sms-join', ctx.staffA.headers)).statusCode).toBe(403);
  });

  it('a text joins and answers the number and place; the same message again is answered once', async () => {
    const res = await post(`${today.toLowerCase()}`, '+237677100001', 'at-1');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().outcome).toBe('joined');
    const again = await post(`${today.toLowerCase()}`, '+237677100001', 'at-1');
    expect(again.json().outcome).toBe('duplicate');
    expect(await answersTo('+237677100001')).toBe(1);
    const answer = await answerTo('+237677100001');
    expect(answer).toMatch(/votre numéro [A-Z]-\d{3}, personne avant vous/);
    expect(answer.length).toBeLessThanOrEqual(160);
    const visit = await s.db
      .selectFrom('visits')
      .select(['source', 'phone', 'locale'])
      .where('phone', '=', '+237677100001')
      .executeTakeFirstOrThrow();
    expect(visit).toEqual({ source: 'sms', phone: '+237677100001', locale: 'fr' });
    // In English, a minute later: behind the first.
    s.clock.set(new Date(Date.parse(PINNED_NOW) + 60_000).toISOString());
    expect(await text(`${today} en`, '+237677100002')).toBe('joined');
    expect(await answerTo('+237677100002')).toMatch(/your number [A-Z]-\d{3}, 1 ahead of you/);
    // The same phone again: its own number, not a second one.
    expect(await text(today, '+237677100001')).toBe('already_in_line');
    expect(await answerTo('+237677100001')).toMatch(/a déjà le numéro [A-Z]-\d{3}/);
  });

  it('LATE steps back one place once; LEAVE leaves', async () => {
    expect(await text('RETARD', '+237677100001')).toBe('moved_back');
    expect(await answerTo('+237677100001')).toMatch(/vous reculez d'une place: 1 avant vous/);
    const line = await q.call('GET', '/queue/today', ctx.staffA.headers);
    const waiting = (line.json().visits as { phone: string | null; state: string }[]).filter(
      (v) => v.state === 'waiting',
    );
    expect(waiting.map((v) => v.phone)).toEqual(['+237677100002', '+237677100001']);
    expect(await text('late', '+237677100001')).toBe('once_already');
    expect(await text('Quitter', '+237677100001')).toBe('left');
    expect(await answerTo('+237677100001')).toMatch(/vous avez quitté la file/);
    expect(await text('LEAVE', '+237677100001')).toBe('no_visit');
  });

  it('refuses a wrong secret, a wrong code (counted), an unknown word and a foreign number', async () => {
    const wrong = await post(today, '+237677100003', 'x', '/api/v1/sms/inbound/not-the-secret');
    expect(wrong.statusCode).toBe(404);
    const code = Number(today.split(' ')[1]);
    const wrongCode = `AKWA ${String((code + 1) % 1000).padStart(3, '0')} ${today.split(' ')[2]}`;
    const outcomes: string[] = [];
    for (let i = 0; i < 6; i++) outcomes.push(await text(wrongCode, '+237677100003'));
    expect(outcomes).toEqual([...Array(5).fill('wrong_code'), 'too_many']);
    // Even the right code now: the phone used its tries for today.
    expect(await text(today, '+237677100003')).toBe('too_many');
    expect(await text('ZZZZ 123', '+237677100004')).toBe('unknown_keyword');
    expect(await text('?', '+237677100004')).toBe('help');
    expect(await text(today, '+33612345678')).toBe('foreign_number');
  });

  it('a phone that joins and leaves again and again is stopped at 3 joins a day', async () => {
    const phone = '+237677100005';
    const outcomes: string[] = [];
    for (let i = 0; i < 4; i++) {
      outcomes.push(await text(today, phone));
      await text('LEAVE', phone);
    }
    expect(outcomes).toEqual(['joined', 'joined', 'joined', 'too_many']);
  });

  it('the operator sends a text by hand (the simulator’s inbound side) and reads the answer', async () => {
    const res = await q.call('POST', '/platform/sms/inbound', ctx.operator.headers, {
      from: '677 10 00 06',
      text: today,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().outcome).toBe('joined');
    expect(res.json().reply).toMatch(/votre numéro/);
    const staff = await q.call('POST', '/platform/sms/inbound', ctx.staffA.headers, {
      from: '677100006',
      text: today,
    });
    expect(staff.statusCode).toBe(403);
  });

  it('a flood of phones is held by the branch’s ceiling, counted with the join page’s', async () => {
    // A minute of its own: the ceiling counts this minute's remote joins (15 by default).
    s.clock.set(new Date(Date.parse(PINNED_NOW) + 10 * 60_000).toISOString());
    const outcomes: string[] = [];
    for (let i = 0; i < 17; i++) {
      outcomes.push(await text(today, `+2376772000${String(i).padStart(2, '0')}`));
    }
    expect(outcomes.filter((o) => o === 'joined')).toHaveLength(15);
    expect(outcomes.slice(15)).toEqual(['busy', 'busy']);
    expect(await answerTo('+237677200016')).toMatch(/trop de monde rejoint la file/);
  });
});
