import type { Service } from '@qless/contract';
import { localizedText } from '@qless/contract/core';
import type { Locale } from '../i18n/i18n';

type Texts = Pick<Service, 'service_name' | 'service_description'> &
  Partial<Pick<Service, 'service_name_fr' | 'service_description_fr'>>;

/** A service's name in the reader's language (the one rule: `localizedText`). */
export function serviceName(service: Texts, locale: Locale): string {
  return localizedText(service.service_name, service.service_name_fr, locale);
}

/** Its description, the same way. */
export function serviceDescription(service: Texts, locale: Locale): string {
  return localizedText(service.service_description, service.service_description_fr, locale);
}
