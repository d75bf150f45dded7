/** "677 123 456" for display (the booking form's confirmation, the ticket page's WhatsApp choice). */
export function formatLocalPhone(e164OrLocal: string): string {
  const digits = e164OrLocal.replace(/\D/g, '').replace(/^237(?=\d{9}$)/, '');
  return digits.length === 9
    ? `${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}`
    : e164OrLocal;
}
