import { sql } from 'kysely';
import type { Db, OutboxChannel, OutboxRow } from '../../db/schema.js';
import { currentRequestId } from '../../request-context.js';

export interface NewMail {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /** What the mail is for (invitation, password_reset...): operators filter on it. */
  kind: string;
}

/**
 * A customer's message as the outbox keeps it (the door, messages/message-door.ts, makes it):
 * its text written now, or, for a booking message, rendered when it is sent.
 */
export interface NewMessageRow {
  channel: OutboxChannel;
  to: string;
  kind: string;
  locale: 'en' | 'fr';
  dedupeKey: string;
  organizationId: string | null;
  /** Names the row for operators (never sent by SMS); null for a booking message. */
  subject: string | null;
  /** Null for a booking message (rendered from the booking when it is sent). */
  text: string | null;
  bookingId: string | null;
  occurrence: string | null;
  dueAt: Date;
  /** Past this it is skipped, not sent; null: no such moment. */
  usefulUntil: Date | null;
}

/** What a message says, as handed to its channel. */
export interface RenderedMessage {
  subject: string | null;
  text: string;
  html: string | null;
}

/**
 * Puts a mail in the outbox. Given the transaction that caused it, the mail exists exactly
 * when what it announces does (an invitation without its mail, or the reverse, cannot be).
 */
export async function queueMail(db: Db, mail: NewMail, now: Date): Promise<string> {
  const row = await db
    .insertInto('outbox')
    .values({
      channel: 'email',
      to_address: mail.to,
      subject: mail.subject,
      text_body: mail.text,
      html_body: mail.html ?? null,
      kind: mail.kind,
      created_at: now,
      // Due at once.
      next_attempt_at: now,
      request_id: currentRequestId(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * An SMS whose text is written now (an invitation link), due at once; like queueMail. Its
 * `subject` is never sent: it names the message in the operators' outbox (and rows that are
 * not booking messages must have one).
 */
export async function queueSms(
  db: Db,
  sms: { to: string; subject: string; text: string; kind: string },
  now: Date,
): Promise<string> {
  const row = await db
    .insertInto('outbox')
    .values({
      channel: 'sms',
      to_address: sms.to,
      subject: sms.subject,
      text_body: sms.text,
      html_body: null,
      kind: sms.kind,
      created_at: now,
      next_attempt_at: now,
      request_id: currentRequestId(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Queues customers' messages. A message whose dedupe key is already in the outbox (the same
 * event told twice, by another process or a retried transaction) is left out: ON CONFLICT DO
 * NOTHING, so it also holds between transactions running at the same time. Returns how many
 * were new.
 */
export async function insertMessageRows(
  db: Db,
  messages: NewMessageRow[],
  now: Date,
): Promise<number> {
  if (messages.length === 0) return 0;
  const inserted = await db
    .insertInto('outbox')
    .values(
      messages.map((m) => ({
        channel: m.channel,
        to_address: m.to,
        subject: m.subject,
        text_body: m.text,
        html_body: null,
        kind: m.kind,
        booking_id: m.bookingId,
        occurrence: m.occurrence,
        locale: m.locale,
        dedupe_key: m.dedupeKey,
        organization_id: m.organizationId,
        created_at: now,
        next_attempt_at: m.dueAt,
        useful_until: m.usefulUntil,
        request_id: currentRequestId(),
      })),
    )
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returning('id')
    .execute();
  return inserted.length;
}

/**
 * Claims up to `limit` due messages of the given channels for this process: the rows are
 * locked with SKIP LOCKED (a process claiming at the same moment takes other rows), counted
 * as one more attempt and leased until `leaseUntil`, so no other process picks them up while
 * this one is sending. A process that dies mid-send leaves the lease to run out; the message
 * is then tried again.
 */
export async function claimDue(
  db: Db,
  channels: OutboxChannel[],
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<OutboxRow[]> {
  if (channels.length === 0) return [];
  const due = await db
    .selectFrom('outbox')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where('channel', 'in', channels)
    // What stops being worth sending soonest goes first ("go to the counter" before a backlog of
    // reminders released at 07:00), then the oldest due.
    .orderBy(sql`useful_until asc nulls last`)
    .orderBy('next_attempt_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
  if (due.length === 0) return [];
  return db
    .updateTable('outbox')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), next_attempt_at: leaseUntil }))
    .where(
      'id',
      'in',
      due.map((r) => r.id),
    )
    .returningAll()
    .execute();
}

/**
 * Hands back claimed messages this process will not send (it is shutting down): due at once
 * for any process, and the attempt counted by the claim taken back, since none was made.
 * Only rows still under this claim's lease (`leaseUntil`) and pending are touched. Returns
 * how many were handed back.
 */
export async function releaseClaims(
  db: Db,
  ids: string[],
  leaseUntil: Date,
  now: Date,
): Promise<number> {
  if (ids.length === 0) return 0;
  const released = await db
    .updateTable('outbox')
    .set((eb) => ({ attempts: eb('attempts', '-', 1), next_attempt_at: now }))
    .where('id', 'in', ids)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '=', leaseUntil)
    .returning('id')
    .execute();
  return released.length;
}

/** The text a booking message was rendered with, kept with its outcome (null: as queued). */
function renderedColumns(rendered: RenderedMessage | null) {
  return rendered
    ? { subject: rendered.subject, text_body: rendered.text, html_body: rendered.html }
    : {};
}

export async function markSent(
  db: Db,
  id: string,
  now: Date,
  delivery: { provider: string; providerMessageId: string | null },
  rendered: RenderedMessage | null,
): Promise<void> {
  await db
    .updateTable('outbox')
    .set({
      status: 'sent',
      sent_at: now,
      next_attempt_at: null,
      last_error: null,
      provider: delivery.provider,
      provider_message_id: delivery.providerMessageId,
      ...renderedColumns(rendered),
    })
    .where('id', '=', id)
    .execute();
}

/**
 * Records a failed attempt: tried again at `retryAt`, or given up when it is null (the
 * message stays, with its error, for operators).
 */
export async function markFailed(
  db: Db,
  id: string,
  failure: { error: string; provider: string; retryAt: Date | null },
  rendered: RenderedMessage | null,
): Promise<void> {
  await db
    .updateTable('outbox')
    .set({
      status: failure.retryAt ? 'pending' : 'failed',
      last_error: failure.error,
      next_attempt_at: failure.retryAt,
      provider: failure.provider,
      ...renderedColumns(rendered),
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/** Messages of `kinds` and `channel` sent to `to` since `since` (the per-recipient cap). */
export async function countSentTo(
  db: Db,
  to: string,
  channel: OutboxChannel,
  kinds: readonly string[],
  since: Date,
): Promise<number> {
  if (kinds.length === 0) return 0;
  const row = await db
    .selectFrom('outbox')
    .select((eb) => eb.fn.countAll<string>().as('sent'))
    .where('to_address', '=', to)
    .where('channel', '=', channel)
    .where('kind', 'in', kinds)
    .where('status', '=', 'sent')
    .where('sent_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.sent);
}

/** A message no longer true when it came due (a reminder of a cancelled booking…): not sent. */
export async function markSkipped(db: Db, id: string, reason: string): Promise<void> {
  await db
    .updateTable('outbox')
    .set({ status: 'skipped', last_error: reason, next_attempt_at: null })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}
