/**
 * `?date=yyyy-MM-dd&slot=<id>` of a waitlist offer's link, or null; `#tel=677123456`, the
 * number the offer was sent to (in the fragment: never sent to a server), fills the form.
 */
export function readOfferQuery(
  search: string,
  hash = '',
): { date: string; slot: string; phone: string | null } | null {
  const params = new URLSearchParams(search);
  const date = params.get('date') ?? '';
  const slot = params.get('slot') ?? '';
  const tel = new URLSearchParams(hash.replace(/^#/, '')).get('tel') ?? '';
  const phone = /^6\d{8}$/.test(tel) ? tel : null;
  return /^\d{4}-\d{2}-\d{2}$/.test(date) && /^[0-9a-f-]{36}$/i.test(slot)
    ? { date, slot, phone }
    : null;
}
