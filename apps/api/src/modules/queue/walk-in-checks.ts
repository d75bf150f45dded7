/**
 * Checks of a visitor entering by themself (the kiosk, an SMS): a kiosk's press that already
 * has its visit, and a phone that already has an open visit in the branch today.
 */
import { OPEN_VISIT_STATES } from '@qless/contract';
import type { Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';

/** Thrown under the lock when the kiosk's press already has its visit (caught below). */
export const ALREADY_ISSUED = new Error('This press already has its number');

export function visitOfRequest(db: Db, organizationId: string, requestId: string) {
  return db
    .selectFrom('visits')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('request_id', '=', requestId)
    .executeTakeFirst();
}

/** One open visit per phone per branch and day: a second number for it is refused. */
export async function assertPhoneNotInLine(
  trx: Db,
  organizationId: string,
  date: string,
  phone: string,
): Promise<void> {
  const open = await trx
    .selectFrom('visits')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('visit_date', '=', date)
    .where('phone', '=', phone)
    .where('state', 'in', OPEN_VISIT_STATES)
    .executeTakeFirst();
  if (open) {
    throw new AppError(
      409,
      'PHONE_ALREADY_IN_LINE',
      'This phone number already has a number in the line today.',
    );
  }
}
