/**
 * The kiosk's phone number, typed on its own pad (decision 135): at most 9 digits, shown
 * grouped as Cameroon writes them ("6 77 12 34 56"); complete when it is a mobile number.
 */
export const PHONE_DIGITS = 9;

export function typeDigit(typed: string, digit: string): string {
  if (!/^\d$/.test(digit) || typed.length >= PHONE_DIGITS) return typed;
  return typed + digit;
}

export function isCompletePhone(typed: string): boolean {
  return /^6\d{8}$/.test(typed);
}

export function groupedPhone(typed: string): string {
  const groups = [
    typed.slice(0, 1),
    typed.slice(1, 3),
    typed.slice(3, 5),
    typed.slice(5, 7),
    typed.slice(7, 9),
  ];
  return groups.filter(Boolean).join(' ');
}
