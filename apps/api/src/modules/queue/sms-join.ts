/**
 * Joining from a basic phone (decision 136). A visitor texts the branch's word and the day's
 * code the hall shows ("AKWA 417", a service letter after it when the branch has several) and
 * is answered their number, their place and the estimate; "LEAVE"/"QUITTER" leaves the line,
 * "LATE"/"RETARD" steps back one place, once. Each text is handled once per provider message
 * id (sms_inbound), its answer queued once (the outbox's dedupe key).
 */
import { createHmac } from 'node:crypto';
import { OPEN_VISIT_STATES, SMS_KEYWORD } from '@qless/contract';
import type { Clock } from '../../core/clock.js';
import { todayOf } from '../../core/local-time.js';
import { listedCondition, placeLabel } from '../../core/organizations.repository.js';
import type { Db, VisitRow } from '../../db/schema.js';
import { getOrCreateSecret } from '../../db/secrets.js';
import { AppError } from '../../errors.js';
import { smsParts, toGsm } from '../../providers/sms/sms-text.js';
import { queueCustomerMessage } from '../messages/messages.module.js';
import { estimateFor, loadQueueDay, visitNumber } from './queue-day.js';
import { currentOf, leaveLine } from './queue-leave.js';
import { plannedLetters } from './queue-letters.js';
import type { QueueLine } from './queue-line.service.js';
import { moveBackOnePlace } from './queue-move-back.js';
import { fixedText, joinedText, movedBackText, type SmsLocale } from './sms-words.js';
import type { TurnMessages } from './turn-messages.js';

/** Where the key that derives each branch's code of the day lives (app_secrets). */
export const SMS_DAY_CODE_SECRET = 'queue_sms_day_code_hmac';

/** A branch's code of a day: HMAC-SHA256(secret, organization_id + ':' + date) mod 1000. */
export function smsDayCodeOf(secret: Buffer | string, organizationId: string, date: string) {
  const mac = createHmac('sha256', secret).update(`${organizationId}:${date}`).digest('hex');
  return String(BigInt(`0x${mac}`) % 1000n).padStart(3, '0');
}

export type SmsCommand =
  | { kind: 'join'; keyword: string; code: string | null; letter: string | null; locale: SmsLocale }
  | { kind: 'leave' | 'late' | 'help'; locale: SmsLocale };

const LEAVE = new Set(['LEAVE', 'QUITTER', 'PARTIR']);
const LATE = new Set(['LATE', 'RETARD']);
const FRENCH = new Set(['QUITTER', 'PARTIR', 'RETARD']);

/** A text as a command: accents, case and punctuation do not matter. */
export function parseSms(text: string): SmsCommand {
  const words = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter(Boolean);
  const first = words[0] ?? '';
  const english = words.includes('EN') || words.includes('ENGLISH');
  if (LEAVE.has(first)) return { kind: 'leave', locale: FRENCH.has(first) ? 'fr' : 'en' };
  if (LATE.has(first)) return { kind: 'late', locale: FRENCH.has(first) ? 'fr' : 'en' };
  if (SMS_KEYWORD.test(first)) {
    const rest = words.slice(1);
    return {
      kind: 'join',
      keyword: first,
      code: rest.find((w) => /^\d{3}$/.test(w)) ?? null,
      letter: rest.find((w) => /^[A-Z]$/.test(w)) ?? null,
      locale: english ? 'en' : 'fr',
    };
  }
  return { kind: 'help', locale: english ? 'en' : 'fr' };
}

export interface ReceivedSms {
  /** The gateway (`africastalking`, `simulator`, `console`) and its id of the message. */
  provider: string;
  messageId: string;
  /** E.164. */
  from: string;
  text: string;
}

/**
 * A phone counted against the limits (limits/hall-limits.ts); each throws the limit's refusal
 * (an AppError) when the phone is over it.
 */
export interface PhoneLimits {
  /** Counts a join. */
  join(phone: string): Promise<void>;
  /** Counts a code before it is checked; `succeeded()` gives a right one back. */
  codeTry(phone: string): Promise<{ succeeded(): Promise<void> }>;
}

export interface SmsAnswer {
  outcome: string;
  reply: string | null;
}

export class SmsJoin {
  private constructor(
    private readonly deps: { db: Db; clock: Clock; line: QueueLine; turns: TurnMessages },
    private readonly secret: Buffer,
  ) {}

  static async load(deps: {
    db: Db;
    clock: Clock;
    line: QueueLine;
    turns: TurnMessages;
  }): Promise<SmsJoin> {
    return new SmsJoin(deps, Buffer.from(await getOrCreateSecret(deps.db, SMS_DAY_CODE_SECRET)));
  }

  /** What a branch's visitors text today ("AKWA 417"), or null without a word. */
  async todayOf(organizationId: string): Promise<string | null> {
    const org = await this.deps.db
      .selectFrom('organizations')
      .select(['id', 'sms_keyword', 'time_zone'])
      .where('id', '=', organizationId)
      .executeTakeFirst();
    if (!org?.sms_keyword) return null;
    const date = todayOf(org, this.deps.clock.now());
    return `${org.sms_keyword} ${smsDayCodeOf(this.secret, org.id, date)}`;
  }

  /** Handles a text once (a second delivery of the same message answers nothing). */
  async receive(sms: ReceivedSms, limit: PhoneLimits): Promise<SmsAnswer> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const row = await db
      .insertInto('sms_inbound')
      .values({
        provider: sms.provider,
        provider_message_id: sms.messageId.slice(0, 100),
        received_at: now,
      })
      .onConflict((oc) => oc.columns(['provider', 'provider_message_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!row) return { outcome: 'duplicate', reply: null };
    const command = parseSms(sms.text);
    let answer: Awaited<ReturnType<SmsJoin['answer']>>;
    try {
      answer = await this.answer(command, sms.from, limit);
    } catch (error) {
      // Not handled (the database went away): the gateway's retry of this message is handled
      // then, not answered "duplicate".
      await db
        .deleteFrom('sms_inbound')
        .where('id', '=', row.id)
        .execute()
        .catch(() => undefined);
      throw error;
    }
    await db
      .updateTable('sms_inbound')
      .set({ outcome: answer.outcome, visit_id: answer.visitId ?? null })
      .where('id', '=', row.id)
      .execute();
    await queueCustomerMessage(
      db,
      {
        kind: 'queue_sms_answer',
        // The branch of the visit it was about (HELP, or a word nobody uses, has none).
        organizationId: await this.organizationOf(answer.visitId),
        channel: 'sms',
        to: sms.from,
        locale: command.locale,
        dedupeKey: `sms-in:${row.id}`,
        written: { subject: `SMS answer (${answer.outcome})`, text: answer.reply },
      },
      now,
    );
    return { outcome: answer.outcome, reply: answer.reply };
  }

  private async organizationOf(visitId: string | undefined): Promise<string | null> {
    if (!visitId) return null;
    const visit = await this.deps.db
      .selectFrom('visits')
      .select('organization_id')
      .where('id', '=', visitId)
      .executeTakeFirst();
    return visit?.organization_id ?? null;
  }

  private async answer(
    command: SmsCommand,
    phone: string,
    limit: PhoneLimits,
  ): Promise<{ outcome: string; reply: string; visitId?: string }> {
    const { locale } = command;
    if (command.kind === 'help') return { outcome: 'help', reply: fixedText('help', locale) };
    if (command.kind === 'join') return this.join(command, phone, limit);
    const visit = await this.openVisitOf(phone);
    if (!visit) return { outcome: 'no_visit', reply: fixedText('noVisit', locale) };
    const number = visitNumber(visit);
    const now = this.deps.clock.now();
    if (command.kind === 'leave') {
      try {
        await leaveLine(this.deps.db, visit.id, now, this.deps.turns);
      } catch (error) {
        // Being served, or ended meanwhile: told so, not left unanswered.
        if (!(error instanceof AppError) || error.status !== 409) throw error;
        return {
          outcome: 'not_waiting',
          reply: fixedText('notWaiting', locale, { number }),
          visitId: visit.id,
        };
      }
      return { outcome: 'left', reply: fixedText('left', locale, { number }), visitId: visit.id };
    }
    const moved = await moveBackOnePlace(this.deps.db, visit, now, this.deps.turns);
    if (moved.kind === 'moved') {
      const position = moved.day.positions.get(visit.id) ?? null;
      return {
        outcome: 'moved_back',
        reply: movedBackText(locale, number, position),
        visitId: visit.id,
      };
    }
    const kind = (
      {
        once_already: 'lateOnce',
        last_already: 'lastAlready',
        not_waiting: 'notWaiting',
        cannot_move: 'cannotMove',
      } as const
    )[moved.kind];
    return { outcome: moved.kind, reply: fixedText(kind, locale, { number }), visitId: visit.id };
  }

  private async join(
    command: Extract<SmsCommand, { kind: 'join' }>,
    phone: string,
    limit: PhoneLimits,
  ): Promise<{ outcome: string; reply: string; visitId?: string }> {
    const { db, clock, line } = this.deps;
    const { locale } = command;
    // Only a listed branch (active, verified, its head too) takes visitors by SMS.
    const org = await db
      .selectFrom('organizations as o')
      .select(['o.id', 'o.name', 'o.branch_name', 'o.time_zone', 'o.sms_keyword'])
      .where('o.sms_keyword', '=', command.keyword)
      .where(listedCondition('o'))
      .executeTakeFirst();
    if (!org) return { outcome: 'unknown_keyword', reply: fixedText('unknownWord', locale) };
    try {
      // Counted before it is checked, given back when right: past 5 wrong ones a day nothing
      // is checked, so 5 guesses find one code in 200.
      const tried = await limit.codeTry(phone);
      const today = smsDayCodeOf(this.secret, org.id, todayOf(org, clock.now()));
      if (command.code !== today) {
        return {
          outcome: 'wrong_code',
          reply: fixedText('wrongCode', locale, { keyword: command.keyword }),
        };
      }
      await tried.succeeded();
      // The letters as the line gives them (chosen, or planned for a service's first visit).
      const services = [...(await loadQueueDay(db, org.id, clock.now())).services.values()];
      const letters = plannedLetters(services);
      const active = services.filter((s) => s.active);
      const chosen =
        command.letter !== null
          ? active.find((s) => letters.get(s.id) === command.letter)
          : active.length === 1
            ? active[0]
            : undefined;
      if (!chosen) {
        const list = active
          .map(
            (s) =>
              `${letters.get(s.id) ?? '?'} ${locale === 'fr' ? (s.name_fr ?? s.name) : s.name}`,
          )
          .join(', ');
        return {
          outcome: 'which_service',
          reply: fitList(
            fixedText('whichService', locale, { list: '' }),
            active.map((x) => letters.get(x.id) ?? '?'),
            list,
          ),
        };
      }
      // A text that cannot join (closed, already in line) does not use up the day's joins.
      await line.assertSmsJoinable(org.id, phone);
      await limit.join(phone);
      const { visit, day } = await line.joinBySms(org.id, {
        service_id: chosen.id,
        phone,
        locale,
      });
      return {
        outcome: 'joined',
        visitId: visit.id,
        reply: joinedText({
          locale,
          place: placeLabel(org.name, org.branch_name),
          number: visitNumber(visit),
          position: day.positions.get(visit.id) ?? null,
          estimate: estimateFor(day, visit),
        }),
      };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return this.refused(error, org.id, phone, locale);
    }
  }

  private async refused(error: AppError, organizationId: string, phone: string, locale: SmsLocale) {
    switch (error.code) {
      case 'QUEUE_CLOSED':
        return { outcome: 'closed', reply: fixedText('closed', locale) };
      case 'PHONE_ALREADY_IN_LINE': {
        // Their own phone: saying its number tells them nothing of anyone else.
        const mine = await this.openVisitOf(phone, organizationId);
        const number = mine ? visitNumber(mine) : '';
        return { outcome: 'already_in_line', reply: fixedText('alreadyIn', locale, { number }) };
      }
      case 'QUEUE_JOINS_BUSY':
      case 'SELF_JOIN_LINE_FULL':
        return { outcome: 'busy', reply: fixedText('busy', locale) };
      case 'TOO_MANY_VISITS':
      case 'TOO_MANY_JOIN_CODE_TRIES':
        return { outcome: 'too_many', reply: fixedText('tooMany', locale) };
      default:
        throw error;
    }
  }

  /** The phone's latest open visit of the last day (joined by SMS or not), where it now is. */
  private async openVisitOf(phone: string, organizationId?: string): Promise<VisitRow | null> {
    const { db, clock } = this.deps;
    let query = db
      .selectFrom('visits')
      .select('id')
      .where('phone', '=', phone)
      .where('state', 'in', OPEN_VISIT_STATES)
      .where('created_at', '>', new Date(clock.now().getTime() - 24 * 60 * 60 * 1000));
    if (organizationId) query = query.where('organization_id', '=', organizationId);
    const row = await query.orderBy('created_at', 'desc').executeTakeFirst();
    return row ? ((await currentOf(db, row.id)) ?? null) : null;
  }
}

/**
 * "add the letter: A Consultation, B Caisse" in one SMS part: the names while they fit, else
 * the letters alone (they are what the visitor needs).
 */
function fitList(lead: string, letters: string[], named: string): string {
  const withNames = toGsm(`${lead}${named}`);
  return smsParts(withNames) <= 1 ? withNames : toGsm(`${lead}${letters.join(', ')}`);
}
