import { zonedInstant, zonedNow } from '@qless/contract';
import type { Db } from '../../db/schema.js';
import { insertMessageRows } from '../outbox/outbox.module.js';

/** Why an SMS over its organization's monthly budget is not sent. */
export const BUDGET_SKIP = 'sms budget';

/** The month of `now` in `timeZone` ("2026-11") and the instant it began. */
export function monthOf(now: Date, timeZone: string): { month: string; since: Date } {
  const month = zonedNow(timeZone, now).date.slice(0, 7);
  return { month, since: zonedInstant(`${month}-01`, 0, timeZone) };
}

/** SMS of the organization's customers sent since `since`. */
export async function smsSentSince(db: Db, organizationId: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('outbox')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'sent')
    .where('sent_at', '>=', since)
    .where('channel', '=', 'sms')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface BudgetState {
  monthlyXaf: number | null;
  month: string;
  spentXaf: number;
  /** Another SMS would go past the budget. */
  reached: boolean;
}

/** An organization's SMS budget this month: what was spent, and whether it is used up. */
export async function smsBudgetOf(
  db: Db,
  organizationId: string,
  priceXaf: number,
  now: Date,
): Promise<BudgetState | null> {
  const org = await db
    .selectFrom('organizations')
    .select(['sms_budget_monthly_xaf', 'time_zone'])
    .where('id', '=', organizationId)
    .executeTakeFirst();
  if (!org) return null;
  const { month, since } = monthOf(now, org.time_zone);
  const spentXaf = (await smsSentSince(db, organizationId, since)) * priceXaf;
  const budget = org.sms_budget_monthly_xaf;
  return {
    monthlyXaf: budget,
    month,
    spentXaf,
    reached: budget !== null && spentXaf + priceXaf > budget,
  };
}

/**
 * Who answers for a branch's budget: the active admins of its organization (kept on its head)
 * or of the branch itself, and the branch's managers (who may set the budget too).
 */
async function adminsOf(db: Db, organizationId: string): Promise<{ id: string; email: string }[]> {
  const org = await db
    .selectFrom('organizations')
    .select('parent_id')
    .where('id', '=', organizationId)
    .executeTakeFirst();
  const head = org?.parent_id ?? organizationId;
  return db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('active', '=', true)
    .where((eb) =>
      eb.or([
        eb.and([eb('role', '=', 'org_admin'), eb('organization_id', 'in', [head, organizationId])]),
        eb.and([eb('role', '=', 'branch_manager'), eb('organization_id', '=', organizationId)]),
      ]),
    )
    .execute();
}

/**
 * The monthly SMS budget at sending time (decision 143): an SMS of an organization whose budget
 * another SMS would pass is not sent (its customers keep the free channels), and the first time
 * in a month its admins are told by e-mail, once (one dedupe key per admin and month).
 */
export async function overSmsBudget(
  db: Db,
  organizationId: string,
  priceXaf: number,
  now: Date,
): Promise<boolean> {
  const state = await smsBudgetOf(db, organizationId, priceXaf, now);
  if (!state?.reached) return false;
  const admins = await adminsOf(db, organizationId);
  const budget = state.monthlyXaf ?? 0;
  await insertMessageRows(
    db,
    admins.map((a) => ({
      channel: 'email' as const,
      to: a.email,
      kind: 'sms_budget_reached',
      locale: 'en' as const,
      dedupeKey: `sms-budget:${organizationId}:${state.month}:${a.id}`,
      organizationId,
      subject: 'Qless: your SMS budget for the month is used up',
      text: [
        `Your customers' SMS have cost ${state.spentXaf} FCFA this month (${state.month}), and your monthly SMS budget is ${budget} FCFA.`,
        '',
        'Until the month ends, Qless sends no more SMS to your customers: phones that turned on notifications still get their turn by web push, free.',
        'To raise or remove the budget: Insight, "Messages to customers", in your organization area.',
      ].join('\n'),
      bookingId: null,
      occurrence: null,
      dueAt: now,
      usefulUntil: null,
    })),
    now,
  );
  return true;
}
