/**
 * Where focus goes when the booking modal closes: the slot button that opened it, or — when
 * that slot is gone or no longer bookable (paid, held) — the slot list around it, else the
 * page heading. Never the top of the page.
 */
export function focusSlotOrList(slotId: string, date: string, fallback: HTMLElement | null): void {
  const buttons = [...document.querySelectorAll<HTMLButtonElement>('button[data-slot-id]')];
  const slot = buttons.find(
    (b) =>
      b.dataset.slotId === slotId &&
      (b.closest<HTMLElement>('[data-date]')?.dataset.date ?? date) === date,
  );
  if (slot && !slot.disabled) {
    slot.focus();
    return;
  }
  const list = (slot ?? buttons[0])?.closest<HTMLElement>('section') ?? fallback;
  if (!list) return;
  if (!list.hasAttribute('tabindex')) list.setAttribute('tabindex', '-1');
  list.focus();
}
