/**
 * The customer's SMS about their turn (issue 19 item 5): "you are N-th" once their place in
 * line reaches the organization's notify position, and "go to counter X" once called. Each
 * is queued once per visit, in the transaction that changed the queue (the visit's
 * *_notified_at column and the outbox's dedupe key both say it was), with its text written
 * now: in the visit's language, GSM-7 only, one part (160 characters), with the number and
 * a link to the visitor's page.
 */
import { ticketPageUrl } from '@qless/contract';
import type { Db, VisitRow } from '../../db/schema.js';
import { clipName, firstInOnePart } from '../../providers/sms/sms-text.js';
import { currentRequestId } from '../../request-context.js';
import type { BookingAccess } from '../bookings/booking-access.js';
import { type QueueDay, servedNow, visitNumber } from './queue-day.js';
import type { VisitAccess } from './visit-access.js';

/**
 * The walk-in's page, as the web app builds it (paths.visit: `/visit/{id}#k=KEY`): the key in
 * the fragment, as ticket links carry theirs, so it never reaches a server, its logs or a
 * Referer (decision 120; the page still reads an older link's `?k=`).
 */
export function visitPageUrl(origin: string, visitId: string, key: string): string {
  return `${origin.replace(/\/+$/, '')}/visit/${encodeURIComponent(visitId)}#k=${encodeURIComponent(key)}`;
}

function place(locale: 'en' | 'fr', n: number): string {
  if (locale === 'fr') return n === 1 ? 'le prochain' : `${n}e dans la file`;
  if (n === 1) return 'next in line';
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix} in line`;
}

/** How far names are shortened, in turn, until the text fits one part (0: left out). */
const SHORTENINGS: [organization: number, counter: number][] = [
  [40, 30],
  [30, 30],
  [20, 24],
  [12, 20],
  [0, 20],
  [0, 12],
];

/** The first text of `write` (names shortened less to more) that fits one GSM-7 part. */
const fitted = (write: (orgMax: number, counterMax: number) => string): string =>
  firstInOnePart(SHORTENINGS, ([orgMax, counterMax]) => write(orgMax, counterMax));

export function nearText(f: {
  locale: 'en' | 'fr';
  number: string;
  position: number;
  organization: string;
  link: string;
}): string {
  return fitted((orgMax) => {
    const at = orgMax > 0 ? clipName(f.organization, orgMax) : '';
    return f.locale === 'fr'
      ? `${f.number} : vous êtes ${place('fr', f.position)}${at ? ` chez ${at}` : ''}. Restez à proximité. ${f.link}`
      : `${f.number}: you are ${place('en', f.position)}${at ? ` at ${at}` : ''}. Please stay close. ${f.link}`;
  });
}

export function calledText(f: {
  locale: 'en' | 'fr';
  number: string;
  counter: string;
  organization: string;
  link: string;
}): string {
  return fitted((orgMax, counterMax) => {
    const at = orgMax > 0 ? ` (${clipName(f.organization, orgMax)})` : '';
    const counter = clipName(f.counter, counterMax);
    return f.locale === 'fr'
      ? `${f.number} : c'est votre tour ! Allez au ${counter}${at}. ${f.link}`
      : `${f.number}: it is your turn! Go to ${counter}${at}. ${f.link}`;
  });
}

/** What the SMS need beside the transaction: where links point and how keys are made. */
export class TurnMessages {
  constructor(
    private readonly deps: { publicOrigin: string; visits: VisitAccess; bookings: BookingAccess },
  ) {}

  /** The visitor's own page: the ticket page for a booked visit, else the visit page. */
  private async linkOf(db: Db, visit: VisitRow): Promise<string> {
    if (visit.booking_id) {
      const booking = await db
        .selectFrom('bookings')
        .select('ticket_code')
        .where('id', '=', visit.booking_id)
        .executeTakeFirst();
      if (booking?.ticket_code) {
        return ticketPageUrl(this.deps.publicOrigin, booking.ticket_code, {
          k: this.deps.bookings.keyFor(visit.booking_id),
        });
      }
    }
    return visitPageUrl(this.deps.publicOrigin, visit.id, this.deps.visits.keyFor(visit.id));
  }

  /** A visit's key (answered to the walk-in who joined). */
  keyFor(visitId: string): string {
    return this.deps.visits.keyFor(visitId);
  }

  /**
   * After a change of the queue (same transaction, `day` read after it): "you are N-th" to
   * every waiting visitor with a phone now at or ahead of the notify position, once.
   */
  async afterChange(trx: Db, day: QueueDay): Promise<void> {
    for (const visit of day.waiting) {
      if (!visit.phone || visit.near_notified_at) continue;
      const position = day.positions.get(visit.id);
      if (position === undefined || position > day.settings.notify_position) continue;
      // Held back while no counter serving the service is open; decided again at the next
      // change (a counter opening is one: QueueService.counterState settles the day).
      if (!servedNow(day, visit.service_id)) continue;
      const claimed = await trx
        .updateTable('visits')
        .set({ near_notified_at: day.now })
        .where('id', '=', visit.id)
        .where('near_notified_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      if (!claimed) continue;
      visit.near_notified_at = day.now;
      const text = nearText({
        locale: visit.locale,
        number: visitNumber(visit),
        position,
        organization: day.organization.name,
        link: await this.linkOf(trx, visit),
      });
      await this.queue(trx, visit, 'near', text, day.now);
    }
  }

  /** "Go to counter X", once per visit (a recall sends nothing more). */
  async called(trx: Db, visit: VisitRow, counterName: string, day: QueueDay): Promise<void> {
    if (!visit.phone || visit.called_notified_at) return;
    const claimed = await trx
      .updateTable('visits')
      .set({ called_notified_at: day.now })
      .where('id', '=', visit.id)
      .where('called_notified_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    if (!claimed) return;
    visit.called_notified_at = day.now;
    const text = calledText({
      locale: visit.locale,
      number: visitNumber(visit),
      counter: counterName,
      organization: day.organization.name,
      link: await this.linkOf(trx, visit),
    });
    await this.queue(trx, visit, 'called', text, day.now);
  }

  private async queue(
    trx: Db,
    visit: VisitRow,
    what: 'near' | 'called',
    text: string,
    now: Date,
  ): Promise<void> {
    if (!visit.phone) return;
    await trx
      .insertInto('outbox')
      .values({
        channel: 'sms',
        to_address: visit.phone,
        subject: `Queue ${visitNumber(visit)} (${what})`,
        text_body: text,
        html_body: null,
        kind: `queue_${what}`,
        locale: visit.locale,
        dedupe_key: `visit:${visit.id}:${what}`,
        created_at: now,
        next_attempt_at: now,
        request_id: currentRequestId(),
      })
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .execute();
  }
}
