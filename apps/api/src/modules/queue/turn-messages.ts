/**
 * The customer's SMS about their turn: "you are N-th" once their place in
 * line reaches the organization's notify position, and "go to counter X" once called. Each
 * is queued once per visit, in the transaction that changed the queue (the visit's
 * *_notified_at column and the outbox's dedupe key both say it was), with its text written
 * now: in the visit's language, GSM-7 only, one part (160 characters), with the number and
 * a link to the visitor's page.
 */
import {
  followShortUrl,
  frenchCounterArticle,
  ticketPageUrl,
  ticketShortUrl,
} from '@qless/contract';
import type { BookingAccess } from '../../core/access/booking-access.js';
import type { VisitAccess } from '../../core/access/visit-access.js';
import type { Db, VisitRow } from '../../db/schema.js';
import { fitSms } from '../../providers/sms/sms-fit.js';
import {
  hasLiveSubscription,
  type PushAboutKey,
  queueCustomerMessage,
} from '../messages/messages.module.js';
import { type QueueDay, servedNow, visitNumber } from './queue-day.js';

/**
 * The walk-in's page, as the web app builds it (paths.visit: `/visit/{id}#k=KEY`): the key in
 * the fragment, as ticket links carry theirs, so it never reaches a server, its logs or a
 * Referer (decision 120; the page still reads an older link's `?k=`).
 */
export function visitPageUrl(origin: string, visitId: string, key: string): string {
  return `${origin.replace(/\/+$/, '')}/visit/${encodeURIComponent(visitId)}#k=${encodeURIComponent(key)}`;
}

/** "2nd in line" / "2e dans la file" (an SMS's words, and a WhatsApp template's parameter). */
export function placeWord(locale: 'en' | 'fr', n: number): string {
  if (locale === 'fr') return n === 1 ? 'le prochain' : `${n}e dans la file`;
  if (n === 1) return 'next in line';
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix} in line`;
}

/**
 * "au Guichet 3", "à la Caisse 5", "à l'Accueil 6": the counter's own name, never shortened,
 * after the article its first word takes (a name that starts otherwise: "au guichet X").
 */
export function frToCounter(counter: string): string {
  const name = counter.trim();
  return `${frenchCounterArticle(name, "'")}${name}`;
}

/**
 * "You are N-th", one part (decision 122): the organization and its branch shortened least
 * useful words first ("Restez à proximité", then "vous êtes", before the names); the link never.
 */
export function nearText(f: {
  locale: 'en' | 'fr';
  number: string;
  position: number;
  /** The organization with its branch, as customers see it ("Banque X (Akwa)"). */
  organization: string;
  link: string;
}): string {
  const fr = f.locale === 'fr';
  const first = f.position === 1;
  return fitSms(
    { place: f.organization },
    ({ place: at, optional }) => {
      // Group 1 (kept longest): "vous êtes" before a rank; group 2: "stay close".
      const youAre = optional >= 1 || first ? (fr ? 'vous êtes ' : 'you are ') : '';
      const stay = optional >= 2 ? (fr ? ' Restez à proximité.' : ' Please stay close.') : '';
      return fr
        ? `${f.number} : ${youAre}${placeWord('fr', f.position)}${at ? ` chez ${at}` : ''}.${stay} ${f.link}`
        : `${f.number}: ${youAre}${placeWord('en', f.position)}${at ? ` at ${at}` : ''}.${stay} ${f.link}`;
    },
    { optional: 2 },
  );
}

/**
 * "Go to counter X", one part (decision 122): the counter's name is the message and is never
 * shortened; the place is, before "it is your turn".
 */
export function calledText(f: {
  locale: 'en' | 'fr';
  number: string;
  counter: string;
  organization: string;
  link: string;
}): string {
  return fitSms(
    { place: f.organization },
    ({ place: at, optional }) => {
      const where = at ? ` (${at})` : '';
      return f.locale === 'fr'
        ? `${f.number} :${optional >= 1 ? " c'est à vous !" : ''} Allez ${frToCounter(f.counter)}${where}. ${f.link}`
        : `${f.number}:${optional >= 1 ? ' it is your turn!' : ''} Go to ${f.counter.trim()}${where}. ${f.link}`;
    },
    { keepOptional: true },
  );
}

/** What the SMS need beside the transaction: where links point and how keys are made. */
/** The id of the visit a transfer chain began with (a visitor is moved once or twice). */
async function firstOfChain(db: Db, visit: VisitRow): Promise<string> {
  let id = visit.id;
  let from = visit.transferred_from;
  for (let hop = 0; from && hop < 5; hop++) {
    id = from;
    const row = await db
      .selectFrom('visits')
      .select('transferred_from')
      .where('id', '=', from)
      .executeTakeFirst();
    from = row?.transferred_from ?? null;
  }
  return id;
}

export class TurnMessages {
  constructor(
    private readonly deps: {
      publicOrigin: string;
      /** WEB_PUSH_ENABLED: off, no message waits for a push (decision 142). */
      pushEnabled: boolean;
      /** WhatsApp configured (decision 144): a visitor who asked for it gets it before SMS. */
      whatsappEnabled: boolean;
      visits: VisitAccess;
      bookings: BookingAccess;
    },
  ) {}

  /**
   * The visitor's own page: a booked visit's ticket by its short link (decision 141), else the
   * visit page of the first visit of a transfer chain (the link stays the same and survives an
   * undone transfer).
   */
  private async linkOf(db: Db, visit: VisitRow): Promise<string> {
    const ticket = await this.ticketOf(db, visit);
    if (ticket && visit.booking_id) {
      // Read, never made here: made at confirmation, it takes no lock inside the queue's.
      if (ticket.linkCode) return ticketShortUrl(this.deps.publicOrigin, ticket.linkCode);
      const k = this.deps.bookings.keyFor(visit.booking_id);
      return ticketPageUrl(this.deps.publicOrigin, ticket.code, { k });
    }
    // A walk-in's page with its key: it fits one part, and opens without a per-address limit
    // (the slip's code does not, and a carrier's customers share addresses).
    return (await this.walkInLinks(db, visit)).visitUrl;
  }

  /**
   * A booked visit's ticket code and short link code (null for a walk-in, or a booking with no
   * ticket; a booking confirmed before short links has no link code).
   */
  private async ticketOf(
    db: Db,
    visit: VisitRow,
  ): Promise<{ code: string; linkCode: string | null } | null> {
    if (!visit.booking_id) return null;
    const booking = await db
      .selectFrom('bookings')
      .select(['ticket_code', 'link_code'])
      .where('id', '=', visit.booking_id)
      .executeTakeFirst();
    return booking?.ticket_code ? { code: booking.ticket_code, linkCode: booking.link_code } : null;
  }

  /** A walk-in's page and its slip's short code (of the first visit of a transfer chain). */
  private async walkInLinks(db: Db, visit: VisitRow) {
    const first = await firstOfChain(db, visit);
    const row =
      first === visit.id
        ? visit
        : await db
            .selectFrom('visits')
            .select('follow_code')
            .where('id', '=', first)
            .executeTakeFirst();
    const followCode = row?.follow_code ?? null;
    return {
      visitUrl: visitPageUrl(this.deps.publicOrigin, first, this.deps.visits.keyFor(first)),
      followCode,
      followUrl: followCode ? followShortUrl(this.deps.publicOrigin, followCode) : null,
    };
  }

  /**
   * A slip's two ways back to the turn (decision 135): the visitor's page (as its SMS links it)
   * and, for a walk-in, where its short code is typed (the first visit's code: a transfer keeps
   * the slip good).
   */
  async slipLinks(
    db: Db,
    visit: VisitRow,
  ): Promise<{ visitUrl: string; followCode: string | null; followUrl: string | null }> {
    const ticket = await this.ticketOf(db, visit);
    if (ticket && visit.booking_id) {
      const k = this.deps.bookings.keyFor(visit.booking_id);
      const visitUrl = ticketPageUrl(this.deps.publicOrigin, ticket.code, { k });
      return { visitUrl, followCode: null, followUrl: null };
    }
    return this.walkInLinks(db, visit);
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
      if (visit.near_notified_at) continue;
      const position = day.positions.get(visit.id);
      if (position === undefined || position > day.settings.notify_position) continue;
      // Held back while no counter serving the service is open; decided again at the next
      // change (a counter opening is one: QueueService.counterState settles the day).
      if (!servedNow(day, visit.service_id)) continue;
      // No number and no phone that asked for notifications: nobody to tell (decided again).
      if (!(await this.reachable(trx, visit, day.now))) continue;
      const claimed = await trx
        .updateTable('visits')
        .set({ near_notified_at: day.now })
        .where('id', '=', visit.id)
        .where('near_notified_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      if (!claimed) continue;
      visit.near_notified_at = day.now;
      const link = await this.linkOf(trx, visit);
      const text = nearText({
        locale: visit.locale,
        number: visitNumber(visit),
        position,
        organization: day.organization.name,
        link,
      });
      const place = day.organization.name;
      const params = [visitNumber(visit), placeWord(visit.locale, position), place, link];
      await this.queue(trx, visit, { what: 'near', text, link, place, params }, day.now);
    }
  }

  /**
   * "Go to counter X", once per call, in the call's transaction: the claim itself marked
   * called_notified_at (a recall sends nothing more; a call taken back by Undo or a no-show
   * put back clears it, so the next real call sends its own).
   */
  async called(
    trx: Db,
    visit: VisitRow,
    counterName: string,
    organization: string,
    now: Date,
  ): Promise<void> {
    if (!(await this.reachable(trx, visit, now))) return;
    const link = await this.linkOf(trx, visit);
    const text = calledText({
      locale: visit.locale,
      number: visitNumber(visit),
      counter: counterName,
      organization,
      link,
    });
    const counter = visit.locale === 'fr' ? frToCounter(counterName) : counterName.trim();
    const params = [visitNumber(visit), counter, organization, link];
    const message = { what: 'called' as const, text, link, place: organization, params };
    await this.queue(trx, visit, message, now, `:${now.getTime()}`);
  }

  private async queue(
    trx: Db,
    visit: VisitRow,
    message: {
      what: 'near' | 'called';
      text: string;
      link: string;
      place: string;
      /** The WhatsApp template's parameters (docs/messages.md names them). */
      params: string[];
    },
    now: Date,
    /** Makes the key one per call ("called" may be sent again after an Undo). */
    suffix = '',
  ): Promise<void> {
    const { what, text, link } = message;
    const number = visitNumber(visit);
    await queueCustomerMessage(
      trx,
      {
        kind: `queue_${what}`,
        organizationId: visit.organization_id,
        channel: 'sms',
        // A walk-in without a number is reached by push only (the door queues no SMS).
        to: visit.phone,
        locale: visit.locale,
        dedupeKey: `visit:${visit.id}:${what}${suffix}`,
        written: { subject: `Queue ${number} (${what})`, text },
        // A phone subscribed on the ticket page, or on the visit page of any visit of the chain.
        push: this.deps.pushEnabled
          ? {
              about: await this.pushAbout(trx, visit),
              title: `${number} · ${message.place}`,
              body: text.replace(link, '').trim(),
              url: link,
              tag: `visit:${visit.booking_id ?? visit.id}`,
            }
          : undefined,
        whatsapp:
          this.deps.whatsappEnabled && visit.whatsapp_opt_in_at
            ? { template: `queue_${what}`, params: message.params }
            : undefined,
      },
      now,
    );
  }

  /** Whether a message about the visit can reach anyone: its number, or a subscribed phone. */
  private async reachable(trx: Db, visit: VisitRow, now: Date): Promise<boolean> {
    if (visit.phone) return true;
    return this.deps.pushEnabled && hasLiveSubscription(trx, await this.pushAbout(trx, visit), now);
  }

  /** Where a phone that follows this visit subscribed: its booking, its first visit, itself. */
  private async pushAbout(trx: Db, visit: VisitRow): Promise<PushAboutKey[]> {
    const about: PushAboutKey[] = [`visit:${visit.id}`];
    if (visit.booking_id) about.push(`booking:${visit.booking_id}`);
    if (visit.transferred_from) about.push(`visit:${await firstOfChain(trx, visit)}`);
    return about;
  }
}
