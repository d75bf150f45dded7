/**
 * The one rule for an organization's bilingual texts (service names and descriptions):
 * the reader's language when the organization wrote that version, else the base text.
 * Services have a base name (`services.name`, the English one) and an optional French
 * one (`services.name_fr`); a blank French text counts as none. Server (messages) and web
 * (every screen, the PDF) call this, so they cannot disagree.
 */
export function localizedText(
  base: string,
  french: string | null | undefined,
  locale: string,
): string {
  const translated = locale === 'fr' ? french?.trim() : '';
  return translated || base.trim() || base;
}

/** A service's name in `locale`, from any shape that carries the two names. */
export function localizedServiceName(
  service: { service_name: string; service_name_fr?: string | null | undefined },
  locale: string,
): string {
  return localizedText(service.service_name, service.service_name_fr, locale);
}
