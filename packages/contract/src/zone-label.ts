/**
 * A time zone as people read it: "Douala time (UTC+1)", "heure de Douala (UTC+1)", never the
 * raw id "Africa/Douala". The offset is the zone's at `at` (zones with summer time change).
 */
export function utcOffsetLabel(timeZone: string, at: Date): string {
  try {
    const part = new Intl.DateTimeFormat('en-GB', { timeZone, timeZoneName: 'shortOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value;
    // "GMT+1" → "UTC+1"; "GMT" → "UTC".
    if (!part) return 'UTC';
    const offset = part.replace(/^(GMT|UTC)/, '');
    return offset === '' || offset === '+0' ? 'UTC' : `UTC${offset}`;
  } catch {
    return 'UTC';
  }
}

/** The zone's city: the last segment of the IANA id, underscores as spaces. */
export function zoneCity(timeZone: string): string {
  const last = timeZone.split('/').pop() ?? timeZone;
  return last.replace(/_/g, ' ');
}

export function zoneLabel(locale: 'en' | 'fr', timeZone: string, at: Date): string {
  const city = zoneCity(timeZone);
  const offset = utcOffsetLabel(timeZone, at);
  return locale === 'fr' ? `heure de ${city} (${offset})` : `${city} time (${offset})`;
}
