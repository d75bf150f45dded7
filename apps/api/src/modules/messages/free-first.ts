import type { Db } from '../../db/schema.js';

/**
 * The free channel first, SMS behind it (decisions 142, 144): a message that goes by web push
 * or WhatsApp has rows keyed after its SMS's key (`{key}:push:{subscription}`, `{key}:whatsapp`).
 * What comes back about them — shown, delivered, failed — decides the SMS waiting behind.
 */
export function pushDedupeKey(dedupeKey: string, subscriptionId: string): string {
  return `${dedupeKey}:push:${subscriptionId}`;
}

export function whatsappDedupeKey(dedupeKey: string): string {
  return `${dedupeKey}:whatsapp`;
}

/** The message's own key (its SMS's), from one of its free rows' keys. */
function messageKeyOf(freeKey: string): string {
  return freeKey.replace(/:(push:[^:]+|whatsapp)$/, '');
}

/** A free row as a report names it: a push by its outbox id, WhatsApp by its message id. */
export type FreeRow =
  | { channel: 'push'; id: string }
  | { channel: 'whatsapp'; providerMessageId: string };

/**
 * A free message reached the phone (a push shown, a WhatsApp message delivered or read): it is
 * delivered, and the SMS waiting behind it is not sent (skipped, "delivered by push" or "by
 * WhatsApp"), unless a worker already claimed it. Returns whether the report named a message
 * not yet reported (recorded) and whether an SMS was spared. Said twice (a retried report), the
 * second changes nothing. Run it in a transaction.
 */
export async function recordDelivered(
  db: Db,
  row: FreeRow,
  now: Date,
): Promise<{ recorded: boolean; spared: boolean }> {
  let update = db
    .updateTable('outbox')
    .set({ delivered_at: now, delivery: 'delivered' })
    .where('channel', '=', row.channel)
    .where('delivery', 'is', null);
  update =
    row.channel === 'push'
      ? update.where('id', '=', row.id)
      : update.where('provider_message_id', '=', row.providerMessageId);
  const free = await update.returning('dedupe_key').executeTakeFirst();
  if (!free) return { recorded: false, spared: false };
  if (!free.dedupe_key) return { recorded: true, spared: false };
  const spared = await db
    .updateTable('outbox')
    .set({
      status: 'skipped',
      last_error: row.channel === 'push' ? 'delivered by push' : 'delivered by WhatsApp',
      next_attempt_at: null,
    })
    .where('dedupe_key', '=', messageKeyOf(free.dedupe_key))
    .where('channel', '=', 'sms')
    .where('status', '=', 'pending')
    .where('attempts', '=', 0)
    .returning('id')
    .executeTakeFirst();
  return { recorded: true, spared: spared !== undefined };
}

/**
 * A WhatsApp message its webhook says failed after it was accepted (a number not on WhatsApp…):
 * recorded failed, and the SMS behind it brought forward.
 */
export async function recordWhatsAppFailed(
  db: Db,
  providerMessageId: string,
  reason: string,
  now: Date,
): Promise<boolean> {
  const row = await db
    .updateTable('outbox')
    .set({ delivered_at: now, delivery: 'failed', last_error: reason.slice(0, 200) })
    .where('channel', '=', 'whatsapp')
    .where('provider_message_id', '=', providerMessageId)
    .where('delivery', 'is', null)
    .returning('dedupe_key')
    .executeTakeFirst();
  if (row?.dedupe_key) await hurryFallback(db, row.dedupe_key, now);
  return row !== undefined;
}

/**
 * A free message that failed for good (its subscription gone, a refusal, a failed status): the
 * SMS waiting behind it is due now rather than after its wait, unless another of the message's
 * free rows (another phone's push) may still arrive.
 */
export async function hurryFallback(db: Db, freeKey: string, now: Date): Promise<void> {
  const key = messageKeyOf(freeKey);
  const others = await db
    .selectFrom('outbox')
    .select('id')
    .where('dedupe_key', 'like', `${key.replace(/[\\%_]/g, '\\$&')}:%`)
    .where('channel', 'in', ['push', 'whatsapp'])
    .where('status', 'in', ['pending', 'sent'])
    .where('delivery', 'is', null)
    .executeTakeFirst();
  if (others) return;
  await db
    .updateTable('outbox')
    .set({ next_attempt_at: now })
    .where('dedupe_key', '=', key)
    .where('channel', '=', 'sms')
    .where('status', '=', 'pending')
    .where('attempts', '=', 0)
    .where('next_attempt_at', '>', now)
    .execute();
}

/**
 * The customer took back their WhatsApp opt-in (decision 144): the WhatsApp messages of these
 * visits not sent yet are skipped ("WhatsApp withdrawn"), and the SMS behind each is due now.
 */
export async function withdrawWhatsApp(
  db: Db,
  visitIds: readonly string[],
  now: Date,
): Promise<void> {
  for (const visitId of visitIds) {
    const withdrawn = await db
      .updateTable('outbox')
      .set({ status: 'skipped', last_error: 'WhatsApp withdrawn', next_attempt_at: null })
      .where('channel', '=', 'whatsapp')
      .where('status', '=', 'pending')
      .where('dedupe_key', 'like', `visit:${visitId}:%`)
      .returning('dedupe_key')
      .execute();
    for (const row of withdrawn) {
      if (row.dedupe_key) await hurryFallback(db, row.dedupe_key, now);
    }
  }
}
