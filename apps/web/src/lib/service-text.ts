import type { Service } from '@qless/contract';
import type { Locale } from '../i18n/i18n';

type Texts = Pick<Service, 'service_name' | 'service_description'> &
  Partial<Pick<Service, 'service_name_fr' | 'service_description_fr'>>;

/** A service's name in the reader's language: French when it has one, else the English. */
export function serviceName(service: Texts, locale: Locale): string {
  return (locale === 'fr' && service.service_name_fr?.trim()) || service.service_name;
}

/** Its description, the same way. */
export function serviceDescription(service: Texts, locale: Locale): string {
  return (locale === 'fr' && service.service_description_fr?.trim()) || service.service_description;
}
