/**
 * The counter this device works at, remembered per organization: a clerk who reloads the
 * page, or comes back tomorrow on the same phone, is at the same counter.
 */
const key = (organizationId: string) => `qless.queue.counter.${organizationId}`;

export function rememberedCounter(organizationId: string): string | null {
  try {
    return localStorage.getItem(key(organizationId));
  } catch {
    // Storage can be off (private mode, a full disk): the choice is then asked again.
    return null;
  }
}

export function rememberCounter(organizationId: string, counterId: string | null): void {
  try {
    if (counterId) localStorage.setItem(key(organizationId), counterId);
    else localStorage.removeItem(key(organizationId));
  } catch {
    // Not remembered: the clerk picks again next time.
  }
}
