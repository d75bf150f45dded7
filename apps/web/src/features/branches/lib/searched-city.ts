import { matchesQuery } from '../../../lib/search';

/** Shorter texts ("a", "ba") are in too many city names to say which one was meant. */
const MIN_PARTIAL = 3;

/**
 * The branch city a catalogue search named, if any: "yaounde" or "banque yaoundé" found the
 * organization by its Yaoundé branch, so its picker opens on Yaoundé.
 */
export function searchedCity(cities: readonly string[] | undefined, query: string): string | null {
  const q = query.trim();
  if (!q || !cities) return null;
  return (
    cities.find(
      (city) => matchesQuery(q, city) || (q.length >= MIN_PARTIAL && matchesQuery(city, q)),
    ) ?? null
  );
}
