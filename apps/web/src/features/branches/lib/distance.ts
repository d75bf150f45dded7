/** A place on Earth in degrees (the phone's position, a branch's). */
export interface Point {
  latitude: number;
  longitude: number;
}

/** The mean Earth radius (IUGG), in kilometres. */
const EARTH_RADIUS_KM = 6371.0088;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance between two points (haversine), in kilometres. */
export function haversineKm(a: Point, b: Point): number {
  const dLat = rad(b.latitude - a.latitude);
  const dLon = rad(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLon / 2) ** 2;
  // min(): rounding may push h a hair over 1 for antipodes.
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

interface Placed {
  latitude: number | null;
  longitude: number | null;
}

/** `item` with its distance from `from` in km: null when it has no coordinates. */
export type WithDistance<T> = { item: T; km: number | null };

/**
 * The items nearest `from` first; those without coordinates keep their order after all the
 * others (a branch not placed on the map is still a branch). Equal distances keep their order.
 */
export function byDistance<T extends Placed>(items: readonly T[], from: Point): WithDistance<T>[] {
  const measured = items.map((item, index) => ({
    item,
    index,
    km:
      item.latitude === null || item.longitude === null
        ? null
        : haversineKm(from, { latitude: item.latitude, longitude: item.longitude }),
  }));
  measured.sort((a, b) => {
    if (a.km === null || b.km === null) {
      if (a.km === b.km) return a.index - b.index;
      return a.km === null ? 1 : -1;
    }
    return a.km - b.km || a.index - b.index;
  });
  return measured.map(({ item, km }) => ({ item, km }));
}

/**
 * A distance as the reader's language writes it: metres under 1 km (to the nearest 10 m),
 * one decimal under 10 km ("1.2 km", "1,2 km"), whole kilometres beyond.
 */
export function formatDistance(km: number, intlLocale: string): string {
  if (km < 1) {
    const metres = Math.max(10, Math.round((km * 1000) / 10) * 10);
    return new Intl.NumberFormat(intlLocale, { style: 'unit', unit: 'meter' }).format(metres);
  }
  return new Intl.NumberFormat(intlLocale, {
    style: 'unit',
    unit: 'kilometer',
    maximumFractionDigits: km < 10 ? 1 : 0,
  }).format(km);
}

/** The distinct cities (case and accents aside), in the reader's alphabetical order. */
export function citiesOf(items: readonly { city: string }[], intlLocale: string): string[] {
  const collator = new Intl.Collator(intlLocale, { sensitivity: 'base' });
  const cities: string[] = [];
  for (const { city } of items) {
    const name = city.trim();
    if (name && !cities.some((c) => collator.compare(c, name) === 0)) cities.push(name);
  }
  return cities.sort(collator.compare);
}

/** Whether the item is in `city` (case and accents aside: "yaounde" is Yaoundé). */
export function inCity(item: { city: string }, city: string, intlLocale: string): boolean {
  const collator = new Intl.Collator(intlLocale, { sensitivity: 'base' });
  return collator.compare(item.city.trim(), city.trim()) === 0;
}
