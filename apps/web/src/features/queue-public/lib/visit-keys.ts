/**
 * The key a visit link carries: `#k=` (the links of now: the fragment never reaches a
 * server, its logs or a Referer), else `?k=` (links sent before, which keep working).
 */
export function linkKeyOf(search: string, hash: string): string | null {
  const fromHash = new URLSearchParams(hash.replace(/^#/, '')).get('k');
  if (fromHash) return fromHash;
  return new URLSearchParams(search.replace(/^\?/, '')).get('k') || null;
}

/**
 * The keys of the visits joined on this device (the walk-in's page, reloaded without `#k=`).
 * A few only, newest kept: a visit lasts a day.
 */
const KEY = 'qless.visits';
const MAX_ENTRIES = 10;

interface StoredVisit {
  visit_id: string;
  key: string;
}

function read(): StoredVisit[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(parsed)
      ? parsed.filter(
          (v): v is StoredVisit =>
            typeof v?.visit_id === 'string' && typeof (v as StoredVisit).key === 'string',
        )
      : [];
  } catch {
    return [];
  }
}

export function rememberVisit(visitId: string, key: string): void {
  const entries = [...read().filter((v) => v.visit_id !== visitId), { visit_id: visitId, key }];
  try {
    localStorage.setItem(KEY, JSON.stringify(entries.slice(-MAX_ENTRIES)));
  } catch {
    // Storage off (private mode): the address keeps the key instead.
  }
}

export function visitKey(visitId: string): string | null {
  return read().find((v) => v.visit_id === visitId)?.key ?? null;
}

/** Whether the key is stored (so the address may drop it). */
export function visitKeyStored(visitId: string, key: string): boolean {
  return visitKey(visitId) === key;
}
