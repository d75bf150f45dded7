/** "677 123 456" for display. */
export function formatLocalPhone(e164OrLocal: string): string {
  const digits = e164OrLocal.replace(/\D/g, '').replace(/^237(?=\d{9}$)/, '');
  return digits.length === 9
    ? `${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}`
    : e164OrLocal;
}

export const isEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
