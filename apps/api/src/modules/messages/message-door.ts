import { addDays, zonedInstant, zonedNow } from '@qless/contract';
import type { Db, OutboxChannel } from '../../db/schema.js';
import { insertMessageRows, type NewMessageRow } from '../outbox/outbox.module.js';
import { pushDedupeKey, whatsappDedupeKey } from './free-first.js';
import { type CustomerMessageKind, MESSAGE_KINDS, QUIET_HOURS } from './message-kinds.js';
import { liveSubscriptions, type PushAboutKey } from './push-subscriptions.js';

/** One message to a customer, as its writer knows it. */
export interface CustomerMessage {
  kind: CustomerMessageKind;
  /** Whose customer it is (Insight counts it, its SMS budget holds it); null: nobody's yet. */
  organizationId: string | null;
  channel: OutboxChannel;
  /**
   * An E.164 phone number for SMS, an e-mail address for e-mail. Null: the customer gave no
   * number; only a free channel (`push`) can reach them, and nothing is queued without one.
   */
  to: string | null;
  locale: 'en' | 'fr';
  /** One message per key, ever (see MESSAGE_KINDS[kind].dedupe). */
  dedupeKey: string;
  /**
   * Written now: `subject` names the row for operators (an SMS never carries it). Absent for
   * a booking message, which is written from the booking when it is sent.
   */
  written?: { subject: string; text: string };
  /** The booking and which of its times (booking messages only). */
  booking?: { id: string; occurrence: string };
  /** When it may leave; now unless said. */
  dueAt?: Date;
  /** Past this it is not sent; unless said, its due time plus the kind's useful time. */
  usefulUntil?: Date;
  /** The organization's zone: a kind held in quiet hours waits for 07:00 there. */
  timeZone?: string;
  /**
   * For a kind that goes by web push first (MESSAGE_KINDS[kind].freeFirstMs): what the
   * customer's phones may have subscribed to, and the notification. With a live subscription
   * the push leaves now and the SMS waits, sent only if no push was shown in time.
   */
  push?: {
    about: readonly PushAboutKey[];
    title: string;
    body: string;
    /** The page it is about, opened by a tap on the notification. */
    url: string;
    /** One notification per tag on the phone: a newer one replaces it. */
    tag: string;
  };
  /**
   * For a customer who asked for WhatsApp (and a site that has it, decision 144): the utility
   * template (its name without WHATSAPP_TEMPLATE_PREFIX) and its body's parameters in order.
   * Used when no phone subscribed to push.
   */
  whatsapp?: { template: string; params: string[] };
}

/**
 * `at`, or 07:00 after it in `timeZone` when `at` falls in quiet hours (21:00–07:00 on the
 * organization's clock).
 */
export function afterQuietHours(at: Date, timeZone: string): Date {
  const { date, minutes } = zonedNow(timeZone, at);
  if (minutes >= QUIET_HOURS.to && minutes < QUIET_HOURS.from) return at;
  const day = minutes >= QUIET_HOURS.from ? addDays(date, 1) : date;
  return zonedInstant(day, QUIET_HOURS.to, timeZone);
}

/** When a message may leave: its due time, after quiet hours for a kind held in them. */
function dueTime(m: CustomerMessage, now: Date): Date {
  const due = m.dueAt ?? now;
  if (!MESSAGE_KINDS[m.kind].quiet) return due;
  if (!m.timeZone) throw new Error(`${m.kind} is held in quiet hours: its writer gives the zone`);
  return afterQuietHours(due, m.timeZone);
}

/**
 * The one door of customers' messages (decision 140): every booking message, reminder, turn
 * SMS, feedback request, waitlist offer and SMS answer is queued here, in its writer's
 * transaction (a message exists exactly when what it tells committed), with its kind, language,
 * dedupe key and the moment after which it is pointless; a kind held in quiet hours queued
 * between 21:00 and 07:00 on the organization's clock is due at 07:00. The per-number cap
 * (`messages-per-recipient` in limits/) is the outbox worker's, at sending time. Returns how
 * many were new (a dedupe key already queued adds nothing).
 */
export async function queueCustomerMessages(
  db: Db,
  messages: readonly CustomerMessage[],
  now: Date,
): Promise<number> {
  const rows: NewMessageRow[] = [];
  for (const m of messages) {
    if (m.to === null && !m.push) continue;
    if (!m.written === !m.booking) {
      throw new Error(`${m.kind}: a message is written now or rendered from its booking`);
    }
    const dueAt = dueTime(m, now);
    const usefulFor: number | null = MESSAGE_KINDS[m.kind].usefulForMs;
    const row: NewMessageRow = {
      channel: m.channel,
      to: m.to ?? '',
      kind: m.kind,
      locale: m.locale,
      dedupeKey: m.dedupeKey,
      organizationId: m.organizationId,
      subject: m.written?.subject ?? null,
      text: m.written?.text ?? null,
      bookingId: m.booking?.id ?? null,
      occurrence: m.booking?.occurrence ?? null,
      dueAt,
      usefulUntil:
        m.usefulUntil ?? (usefulFor === null ? null : new Date(dueAt.getTime() + usefulFor)),
    };
    rows.push(...(await freeFirst(db, m, row, now)));
    // No number: the pushes are all there is (none without a subscription).
    if (m.to !== null) rows.push(row);
  }
  return insertMessageRows(db, rows, now);
}

/**
 * A free channel first (decisions 142, 144): one push per live subscription, or else, for a
 * customer who asked for it, one WhatsApp template message, due now; and the SMS `row` moved
 * back by the kind's wait (a push shown or a WhatsApp message delivered skips it; one that fails
 * for good brings it forward). None when the kind has no free channel or the customer none.
 */
async function freeFirst(
  db: Db,
  m: CustomerMessage,
  row: NewMessageRow,
  now: Date,
): Promise<NewMessageRow[]> {
  const wait = MESSAGE_KINDS[m.kind].freeFirstMs;
  if (wait === null || m.channel !== 'sms') return [];
  const subscriptions = m.push ? await liveSubscriptions(db, m.push.about, now) : [];
  let free: NewMessageRow[] = [];
  if (m.push && subscriptions.length > 0) {
    const { title, body, url, tag } = m.push;
    free = subscriptions.map((sub) => ({
      ...row,
      channel: 'push' as const,
      to: sub.id,
      dedupeKey: pushDedupeKey(m.dedupeKey, sub.id),
      subject: title,
      text: JSON.stringify({ title, body, url, tag }),
    }));
  } else if (m.whatsapp && m.to !== null) {
    const message = {
      template: m.whatsapp.template,
      language: m.locale,
      params: m.whatsapp.params,
    };
    free = [
      {
        ...row,
        channel: 'whatsapp' as const,
        dedupeKey: whatsappDedupeKey(m.dedupeKey),
        text: JSON.stringify(message),
      },
    ];
  }
  if (free.length > 0) row.dueAt = new Date(row.dueAt.getTime() + wait);
  return free;
}

/** One message: true when it was new. */
export async function queueCustomerMessage(
  db: Db,
  message: CustomerMessage,
  now: Date,
): Promise<boolean> {
  return (await queueCustomerMessages(db, [message], now)) === 1;
}
