/**
 * The SMS after a visit: once a visit ends done, a visitor who left a
 * phone number gets one SMS asking for a word, with a link that works for FEEDBACK_LINK_DAYS.
 * Queued in the transaction that ended the visit, deduplicated by the outbox key
 * `visit:{id}:feedback`, its text written then: in the visit's language, GSM-7, one part
 * (160 characters), the organization's name shortened as every SMS is (decision 122); the link
 * is never cut.
 */
import { FEEDBACK_LINK_DAYS, formatVisitNumber, UNDO_WINDOW_SECONDS } from '@qless/contract';
import type { Db, VisitRow } from '../../db/schema.js';
import { fitSms } from '../../providers/sms/sms-fit.js';
import { queueCustomerMessage } from '../messages/messages.module.js';
import type { FeedbackLinks } from './feedback-links.js';

const DAY = 86_400_000;

/** The feedback page, as the web app builds it (paths.feedback: `/feedback/{token}`). */
export function feedbackPageUrl(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, '')}/feedback/${token}`;
}

export function feedbackText(f: {
  locale: 'en' | 'fr';
  organization: string;
  link: string;
}): string {
  return fitSms({ place: f.organization }, ({ place: at, optional }) =>
    f.locale === 'fr'
      ? `Merci de votre visite${at ? ` chez ${at}` : ''} ! Votre avis de 1 à 5 : ${f.link}`
      : `Thank you for visiting${at ? ` ${at}` : ' us'}!${optional >= 1 ? ' How was it?' : ''} Rate 1 to 5: ${f.link}`,
  );
}

/** What the SMS needs beside the transaction: where links point and how tokens are made. */
export class FeedbackRequests {
  constructor(private readonly deps: { publicOrigin: string; links: FeedbackLinks }) {}

  /**
   * The token of a done visit's link, the same one its SMS carried (it expires
   * FEEDBACK_LINK_DAYS after the visit ended): the visit-over page links to it. Null once
   * expired or for a visit not done.
   */
  tokenOf(visit: Pick<VisitRow, 'id' | 'state' | 'ended_at'>, now: Date): string | null {
    if (visit.state !== 'done' || !visit.ended_at) return null;
    const expires = new Date(visit.ended_at.getTime() + FEEDBACK_LINK_DAYS * DAY);
    return expires > now ? this.deps.links.tokenFor(visit.id, expires) : null;
  }

  /**
   * After a visit ended done (same transaction): one SMS with its link to a visitor with a
   * phone. Nothing for a visit that ended otherwise (no-show, left, transferred).
   */
  async afterDone(trx: Db, visit: VisitRow, organizationName: string, now: Date): Promise<void> {
    if (visit.state !== 'done' || !visit.phone) return;
    const token = this.deps.links.tokenFor(
      visit.id,
      new Date(now.getTime() + FEEDBACK_LINK_DAYS * DAY),
    );
    const text = feedbackText({
      locale: visit.locale,
      organization: organizationName,
      link: feedbackPageUrl(this.deps.publicOrigin, token),
    });
    // Held in quiet hours: a visit done at 21:30 is asked about at 07:00.
    const { time_zone: timeZone } = await trx
      .selectFrom('organizations')
      .select('time_zone')
      .where('id', '=', visit.organization_id)
      .executeTakeFirstOrThrow();
    await queueCustomerMessage(
      trx,
      {
        kind: 'visit_feedback',
        organizationId: visit.organization_id,
        timeZone,
        channel: 'sms',
        to: visit.phone,
        locale: visit.locale,
        dedupeKey: `visit:${visit.id}:feedback`,
        written: { subject: `Feedback ${formatVisitNumber(visit.letter, visit.number)}`, text },
        // Sent once the counter's Undo window is over: a Done taken back withdraws it.
        dueAt: new Date(now.getTime() + FEEDBACK_HOLD_MS),
      },
      now,
    );
  }
}

/** How long a feedback SMS waits before it may leave: the Undo window and a margin. */
export const FEEDBACK_HOLD_MS = (UNDO_WINDOW_SECONDS + 5) * 1000;

/** A Done taken back: its feedback SMS, still waiting to leave, is withdrawn. */
export async function withdrawFeedback(trx: Db, visitId: string): Promise<void> {
  await trx
    .deleteFrom('outbox')
    .where('dedupe_key', '=', `visit:${visitId}:feedback`)
    .where('status', '=', 'pending')
    .execute();
}
