import type { AdminService, CreateServiceRequest } from '@qless/contract';
import type { MessageKey } from '../../../i18n/en';

export interface ServiceFormValues {
  service_name: string;
  service_description: string;
  duration: string;
  capacity: string;
  service_name_fr: string;
  service_description_fr: string;
}
export type ServiceField = keyof ServiceFormValues;

/** Each field's message when the server refuses it; null: the error code's own words. */
export const SERVICE_FIELD_KEYS: Record<ServiceField, MessageKey | null> = {
  service_name: 'serviceForm.error.name',
  service_description: 'serviceForm.error.description',
  duration: 'error.INVALID_DURATION',
  capacity: 'error.INVALID_CAPACITY',
  service_name_fr: 'serviceForm.error.nameFr',
  service_description_fr: 'serviceForm.error.descriptionFr',
};

export const EMPTY_SERVICE: ServiceFormValues = {
  service_name: '',
  service_description: '',
  duration: '',
  capacity: '',
  service_name_fr: '',
  service_description_fr: '',
};

export function serviceFormValues(service: AdminService): ServiceFormValues {
  return {
    service_name: service.service_name,
    service_description: service.service_description,
    duration: String(service.duration),
    capacity: String(service.capacity),
    service_name_fr: service.service_name_fr ?? '',
    service_description_fr: service.service_description_fr ?? '',
  };
}

const WHOLE = /^\d+$/;

/** A whole number within [min, max] written in base 10 (the spec parses it so), or null. */
function wholeNumber(text: string, min: number, max: number): number | null {
  const trimmed = text.trim();
  if (!WHOLE.test(trimmed)) return null;
  const value = Number.parseInt(trimmed, 10);
  return value >= min && value <= max ? value : null;
}

export type ServiceFormResult =
  | { ok: true; request: CreateServiceRequest }
  | { ok: false; errors: Partial<Record<ServiceField, MessageKey>> };

/**
 * The browser-side check (the same rules as the contract, in the form's words) and the
 * request body. Empty French fields are sent as null: the English text is then shown.
 * In French (`locale` fr) the admin writes French first and English is optional: a text
 * left empty in English takes the French one as its base (the base name is required), and
 * a missing name or description is the French field's error, the one they were asked for.
 */
export function readServiceForm(
  values: ServiceFormValues,
  locale: 'en' | 'fr' = 'en',
): ServiceFormResult {
  const errors: Partial<Record<ServiceField, MessageKey>> = {};
  const nameFr = values.service_name_fr.trim();
  const descriptionFr = values.service_description_fr.trim();
  const frenchFirst = locale === 'fr';
  const name = values.service_name.trim() || (frenchFirst ? nameFr : '');
  const description = values.service_description.trim() || (frenchFirst ? descriptionFr : '');
  const nameField = frenchFirst && !values.service_name.trim() ? 'service_name_fr' : 'service_name';
  const descriptionField =
    frenchFirst && !values.service_description.trim()
      ? 'service_description_fr'
      : 'service_description';
  if (!name || name.length > 200) errors[nameField] = 'serviceForm.error.name';
  if (!description || description.length > 2000) {
    errors[descriptionField] = 'serviceForm.error.description';
  }
  if (nameFr.length > 200) errors.service_name_fr ??= 'serviceForm.error.nameFr';
  if (descriptionFr.length > 2000) {
    errors.service_description_fr ??= 'serviceForm.error.descriptionFr';
  }
  const duration = wholeNumber(values.duration, 5, 720);
  if (duration === null) errors.duration = 'error.INVALID_DURATION';
  const capacity = values.capacity.trim() === '' ? undefined : wholeNumber(values.capacity, 1, 100);
  if (capacity === null) errors.capacity = 'error.INVALID_CAPACITY';
  if (duration === null || capacity === null || Object.keys(errors).length > 0) {
    return { ok: false, errors };
  }
  return {
    ok: true,
    request: {
      service_name: name,
      service_description: description,
      duration,
      ...(capacity === undefined ? {} : { capacity }),
      service_name_fr: nameFr || null,
      service_description_fr: descriptionFr || null,
    },
  };
}
