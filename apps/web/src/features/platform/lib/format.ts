import { DEFAULT_TIME_ZONE } from '@qless/contract/core';

/** An instant as the platform team reads it: Cameroon time, in the page's language. */
export function formatInstant(iso: string, intlLocale: string): string {
  return new Intl.DateTimeFormat(intlLocale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: DEFAULT_TIME_ZONE,
  }).format(new Date(iso));
}

export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; href: string };

/** Splits a plain-text mail into text and http(s) links, so links in it can be followed. */
export function linkify(text: string): TextPart[] {
  const parts: TextPart[] = [];
  const pattern = /https?:\/\/[^\s<>"]+/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const start = match.index ?? 0;
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) });
    parts.push({ kind: 'link', href: match[0] });
    last = start + match[0].length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}
