/**
 * Customers' messages in Insight (issue 35, item 6; decision 143): the range's messages of the
 * branches covered by channel, their estimated cost, and one branch's SMS budget this month.
 * The service and counter filters do not apply: a message belongs to its organization only.
 */
import { addDays, type InsightMessages, OUTBOX_CHANNELS, zonedInstant } from '@qless/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/schema.js';
import { CUSTOMER_MESSAGE_KINDS, smsBudgetOf } from '../messages/messages.module.js';
import type { InsightScope } from './insight.repository.js';

interface ChannelRow {
  channel: (typeof OUTBOX_CHANNELS)[number];
  sent: number;
  delivered: number;
  spared: number;
  held: number;
}

export async function messageFigures(
  db: Db,
  s: InsightScope,
  timeZone: string,
  prices: { sms: number; whatsapp: number },
  now: Date,
): Promise<InsightMessages> {
  const priceSmsXaf = prices.sms;
  // The range's days in the (first) branch's zone, as the other figures count them.
  const since = zonedInstant(s.from, 0, timeZone);
  const until = zonedInstant(addDays(s.to, 1), 0, timeZone);
  const { rows } = await sql<ChannelRow>`
    select channel,
      count(*) filter (where status = 'sent')::int as sent,
      count(*) filter (where delivery = 'delivered')::int as delivered,
      count(*) filter (where status = 'skipped' and last_error = 'delivered by push')::int as spared,
      count(*) filter (where status = 'skipped' and last_error = 'sms budget')::int as held
    from outbox
    where organization_id in (${sql.join(s.organizationIds)})
      and kind in (${sql.join(CUSTOMER_MESSAGE_KINDS)})
      and coalesce(sent_at, created_at) >= ${since} and coalesce(sent_at, created_at) < ${until}
    group by channel
  `.execute(db);
  const price = (channel: string) =>
    channel === 'sms' ? prices.sms : channel === 'whatsapp' ? prices.whatsapp : 0;
  // WhatsApp only where it was used (a site without it shows no empty row).
  const shown = OUTBOX_CHANNELS.filter(
    (c) => c !== 'whatsapp' || rows.some((r) => r.channel === c),
  );
  const channels = shown.map((channel) => {
    const r = rows.find((x) => x.channel === channel);
    const sent = r?.sent ?? 0;
    return {
      channel,
      sent,
      delivered: r?.delivered ?? 0,
      spared: r?.spared ?? 0,
      held_by_budget: r?.held ?? 0,
      cost_xaf: sent * price(channel),
    };
  });
  const [only] = s.organizationIds;
  const state =
    s.organizationIds.length === 1 && only ? await smsBudgetOf(db, only, priceSmsXaf, now) : null;
  return {
    channels,
    cost_xaf: channels.reduce((sum, c) => sum + c.cost_xaf, 0),
    price_sms_xaf: priceSmsXaf,
    budget:
      state && only
        ? {
            organization_id: only,
            monthly_sms_xaf: state.monthlyXaf,
            month: state.month,
            spent_xaf: state.spentXaf,
            reached: state.reached,
          }
        : null,
  };
}
