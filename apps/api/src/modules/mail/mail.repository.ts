import type { Db } from '../../db/schema.js';

export interface NewMail {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /** What the mail is for (invitation, password_reset...): operators filter on it. */
  kind: string;
}

export interface OutboxRow {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  kind: string;
  attempts: number;
}

/**
 * Puts a mail in the outbox. Given the transaction that caused it, the mail exists exactly
 * when what it announces does (an invitation without its mail, or the reverse, cannot be).
 */
export async function queueMail(db: Db, mail: NewMail, now: Date): Promise<string> {
  const row = await db
    .insertInto('mail_outbox')
    .values({
      to_address: mail.to,
      subject: mail.subject,
      text_body: mail.text,
      html_body: mail.html ?? null,
      kind: mail.kind,
      created_at: now,
      // Due at once; null later means sent or given up.
      next_attempt_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Claims up to `limit` due mails for this process: the rows are locked with SKIP LOCKED (a
 * process claiming at the same moment takes other rows), counted as one more attempt and
 * leased until `leaseUntil`, so no other process picks them up while this one is sending.
 * A process that dies mid-send leaves the lease to run out; the mail is then tried again.
 */
export async function claimDueMail(
  db: Db,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<OutboxRow[]> {
  const due = await db
    .selectFrom('mail_outbox')
    .select('id')
    .where('sent_at', 'is', null)
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
  if (due.length === 0) return [];
  return db
    .updateTable('mail_outbox')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), next_attempt_at: leaseUntil }))
    .where(
      'id',
      'in',
      due.map((r) => r.id),
    )
    .returning(['id', 'to_address', 'subject', 'text_body', 'html_body', 'kind', 'attempts'])
    .execute();
}

export async function markSent(db: Db, id: string, now: Date): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ sent_at: now, next_attempt_at: null, last_error: null })
    .where('id', '=', id)
    .execute();
}

/** Records a failed attempt; `retryAt` null gives the mail up (it stays, unsent, for operators). */
export async function markFailed(
  db: Db,
  id: string,
  error: string,
  retryAt: Date | null,
): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ last_error: error, next_attempt_at: retryAt })
    .where('id', '=', id)
    .where('sent_at', 'is', null)
    .execute();
}
