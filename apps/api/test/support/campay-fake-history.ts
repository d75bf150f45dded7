/**
 * The fake Campay's `POST /api/history/ {start_date, end_date}`. Campay documents the
 * request and that records carry `reference_uuid`, `phone_number`, `amount`, `status` and
 * `code`, and no `external_reference`. GUESS: the dates are whole UTC days (YYYY-MM-DD),
 * both included; the answer is a bare JSON list; each record also carries `description`
 * and `created_at`. The description is what our adapter narrows by when it is present.
 */

export interface HistoryTransaction {
  reference: string;
  status: string;
  amount: string;
  currency: string;
  from: string;
  description: string;
  code: string;
  /** ISO instant of the collect, from the fake's clock. */
  created_at: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function historyAnswer(
  transactions: Iterable<HistoryTransaction>,
  body: unknown,
): { status: number; body: unknown } {
  const get = (name: string) =>
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : null;
  const start = get('start_date');
  const end = get('end_date');
  if (typeof start !== 'string' || typeof end !== 'string' || !DAY.test(start) || !DAY.test(end)) {
    // GUESS: a Django REST framework style field error.
    return { status: 400, body: { detail: 'start_date and end_date are required (YYYY-MM-DD).' } };
  }
  const records = [];
  for (const tx of transactions) {
    const day = tx.created_at.slice(0, 10);
    if (day < start || day > end) continue;
    records.push({
      reference_uuid: tx.reference,
      phone_number: tx.from,
      amount: tx.amount,
      currency: tx.currency,
      status: tx.status,
      code: tx.code,
      description: tx.description,
      created_at: tx.created_at,
    });
  }
  return { status: 200, body: records };
}
