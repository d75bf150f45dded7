/**
 * PostgreSQL text and jsonb refuse NUL characters and unpaired UTF-16 surrogates (22P02 /
 * 22021). Values from outside (callbacks, provider answers) are cleaned here, value by
 * value, before they reach a query — never by editing JSON text, which leaves half escapes.
 */

const LONE = '[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]';
const LONE_SURROGATE = new RegExp(LONE, 'g');
const HAS_LONE_SURROGATE = new RegExp(LONE);

function wellFormed(text: string): boolean {
  return !HAS_LONE_SURROGATE.test(text);
}

/** The text without NULs; unpaired surrogates written out as "\uXXXX" so nothing is lost. */
export function storableText(text: string): string {
  const noNul = text.replaceAll('\u0000', '');
  if (wellFormed(noNul)) return noNul;
  return noNul.replace(
    LONE_SURROGATE,
    (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A JSON-like value with every string (keys included) made storable. */
export function storableValue(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (Array.isArray(value)) return value.map(storableValue);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [storableText(k), storableValue(v)]),
    );
  }
  return value;
}

/** True when some string in the value (or a key) holds an unpaired surrogate. */
export function hasLoneSurrogate(value: unknown): boolean {
  if (typeof value === 'string') return !wellFormed(value);
  if (Array.isArray(value)) return value.some(hasLoneSurrogate);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).some(([k, v]) => !wellFormed(k) || hasLoneSurrogate(v));
  }
  return false;
}
