import type { MessageKey } from '../../../i18n/en';

/** What POST /uploads accepts (it decodes the content; this only spares a useless upload). */
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;

/** Why a chosen file cannot be a logo, or null when it may be uploaded. */
export function logoFileProblem(file: { type: string; size: number }): MessageKey | null {
  if (!(LOGO_TYPES as readonly string[]).includes(file.type)) return 'error.INVALID_IMAGE';
  if (file.size > LOGO_MAX_BYTES) return 'error.PAYLOAD_TOO_LARGE';
  return null;
}
