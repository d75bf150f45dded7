import type { CampayHttp } from './campay-http.js';
import { isRecord, nonEmptyString } from './campay-values.js';
import { type ProviderEvent, ProviderUnavailableError, type TransactionQuery } from './provider.js';

/**
 * Finding a Campay transaction whose reference we never received (the process died, or the
 * collect answer was lost). Campay documents `POST /api/history/ {start_date, end_date}`
 * returning records with `reference_uuid`, `phone_number`, `amount`, `status` and `code`,
 * but no `external_reference`; so the records of the payer's number in the window are
 * candidates, a record's `description` (we put our payment id in it) narrows them when
 * present, and each candidate is read with the status call, whose `external_reference`
 * must be our payment id.
 */

/** Most candidates read one by one: a number makes few payments in a few minutes. */
const MAX_CANDIDATES = 10;

/** YYYY-MM-DD, the date format of Campay's history examples (UTC: Campay's zone is not documented). */
const day = (d: Date) => d.toISOString().slice(0, 10);

/** The records, whether Campay answers a list or wraps it (the envelope is not documented). */
function records(body: unknown): Record<string, unknown>[] {
  const list = Array.isArray(body)
    ? body
    : isRecord(body)
      ? (body.data ?? body.results ?? body.transactions)
      : null;
  return Array.isArray(list) ? list.filter(isRecord) : [];
}

export function createHistoryLookup(
  http: CampayHttp,
  timeoutMs: number,
  getStatus: (reference: string) => Promise<ProviderEvent>,
): (query: TransactionQuery) => Promise<ProviderEvent | null> {
  return async function findTransaction(query) {
    const signal = AbortSignal.timeout(timeoutMs);
    let outcome: Awaited<ReturnType<CampayHttp['authenticated']>>;
    try {
      outcome = await http.authenticated('POST', '/api/history/', signal, {
        start_date: day(query.from),
        end_date: day(query.to),
      });
    } catch (error) {
      throw new ProviderUnavailableError('Campay history query failed', { cause: error });
    }
    if (outcome.kind !== 'response' || outcome.status < 200 || outcome.status >= 300) {
      throw new ProviderUnavailableError('Campay history query did not answer');
    }
    const msisdn = query.phone.replace(/^\+/, '');
    const candidates = records(outcome.body).filter((r) => {
      const phone = nonEmptyString(r.phone_number)?.replace(/^\+/, '');
      const description = nonEmptyString(r.description);
      const amount = Number(r.amount);
      return (
        phone === msisdn &&
        (description === null || description.includes(query.paymentId)) &&
        (!Number.isFinite(amount) || amount === query.amount)
      );
    });
    for (const candidate of candidates.slice(0, MAX_CANDIDATES)) {
      const reference = nonEmptyString(candidate.reference_uuid ?? candidate.reference);
      if (!reference) continue;
      const event = await getStatus(reference);
      if (event.paymentId === query.paymentId) return event;
    }
    return null;
  };
}
