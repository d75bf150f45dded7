/**
 * Time zones offered for an organization: Cameroon's first, then Africa's, then a few
 * common ones. An organization already in another zone keeps it (see `timeZoneOptions`).
 */
export const TIME_ZONES = [
  'Africa/Douala',
  'Africa/Lagos',
  'Africa/Libreville',
  'Africa/Malabo',
  'Africa/Bangui',
  'Africa/Brazzaville',
  'Africa/Kinshasa',
  'Africa/Ndjamena',
  'Africa/Niamey',
  'Africa/Abidjan',
  'Africa/Accra',
  'Africa/Dakar',
  'Africa/Bamako',
  'Africa/Ouagadougou',
  'Africa/Lome',
  'Africa/Porto-Novo',
  'Africa/Conakry',
  'Africa/Luanda',
  'Africa/Lubumbashi',
  'Africa/Kigali',
  'Africa/Bujumbura',
  'Africa/Kampala',
  'Africa/Nairobi',
  'Africa/Dar_es_Salaam',
  'Africa/Addis_Ababa',
  'Africa/Khartoum',
  'Africa/Cairo',
  'Africa/Tripoli',
  'Africa/Tunis',
  'Africa/Algiers',
  'Africa/Casablanca',
  'Africa/Maputo',
  'Africa/Harare',
  'Africa/Lusaka',
  'Africa/Johannesburg',
  'Indian/Antananarivo',
  'Indian/Mauritius',
  'UTC',
  'Europe/London',
  'Europe/Paris',
  'America/New_York',
] as const;

export const DEFAULT_TIME_ZONE = 'Africa/Douala';

export function timeZoneOptions(current: string): string[] {
  const zones: string[] = [...TIME_ZONES];
  return current && !zones.includes(current) ? [current, ...zones] : zones;
}

/** "Africa/Dar_es_Salaam" → "Africa/Dar es Salaam" (the IANA name, readable). */
export const timeZoneLabel = (zone: string) => zone.replaceAll('_', ' ');
