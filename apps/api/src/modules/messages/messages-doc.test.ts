import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  LITTORAL,
  OFFER_LINK,
  TICKET_LINK,
  VISIT_LINK,
} from '../../providers/sms/sms-test-names.js';
import { gsmLength } from '../../providers/sms/sms-text.js';
import { feedbackPageUrl, feedbackText } from '../feedback/feedback-messages.js';
import { fixedText, joinedText } from '../queue/sms-words.js';
import { calledText, nearText } from '../queue/turn-messages.js';
import { offerText } from '../waitlist/waitlist-text.js';
import {
  CUSTOMER_MESSAGE_KINDS,
  type CustomerMessageKind,
  MESSAGE_KINDS,
  type MessageKind,
} from './message-kinds.js';
import { eventOfKind } from './message-rows.js';
import { smsText } from './message-text.js';

/**
 * docs/messages.md lists every kind of customer message (decision 140): its part between the
 * two marks below is made from MESSAGE_KINDS and the texts' own builders, so a kind missing
 * from the document, a changed dedupe key or a changed text fails here.
 * `QLESS_WRITE_DOCS=1 npx vitest run --project unit messages-doc` rewrites it.
 */
const DOC = fileURLToPath(new URL('../../../../../docs/messages.md', import.meta.url));
const BEGIN =
  '<!-- message kinds: generated from apps/api/src/modules/messages/message-kinds.ts -->';
const END = '<!-- end of message kinds -->';
const LOCALES = ['en', 'fr'] as const;
const FEEDBACK_LINK = feedbackPageUrl('https://www.qless.cm', 'A'.repeat(48));

/** Each kind's SMS as a customer of the demo's Akwa branch reads it, in `locale`. */
function examples(kind: CustomerMessageKind, locale: 'en' | 'fr'): string[] {
  const event = eventOfKind(kind);
  if (event) {
    return [
      smsText({
        event,
        locale,
        customerName: 'Ngono Marie',
        organization: LITTORAL,
        address: '',
        service: locale === 'fr' ? 'Retrait' : 'Withdrawal',
        date: '2026-08-06',
        startMinutes: 9 * 60 + 30,
        timeZone: 'Africa/Douala',
        ticketCode: 'QL-ABCD-EFGH-JKLM',
        link: TICKET_LINK,
        cancelledByOrganization: false,
        previous: event === 'reschedule' ? { date: '2026-08-05', startMinutes: 10 * 60 } : null,
        relativeDay:
          event === 'reminder_day_before' ? 'tomorrow' : event === 'reminder_2h' ? 'today' : null,
        at: new Date('2026-08-05T10:00:00Z'),
      }),
    ];
  }
  const counter = locale === 'fr' ? 'Guichet 3' : 'Counter 3';
  const texts: Record<Exclude<CustomerMessageKind, `booking_${string}`>, () => string[]> = {
    queue_near: () => [
      nearText({ locale, number: 'A-042', position: 2, organization: LITTORAL, link: VISIT_LINK }),
    ],
    queue_called: () => [
      calledText({ locale, number: 'A-042', counter, organization: LITTORAL, link: VISIT_LINK }),
    ],
    visit_feedback: () => [feedbackText({ locale, organization: LITTORAL, link: FEEDBACK_LINK })],
    waitlist_offer: () => [
      offerText({
        locale,
        organization: LITTORAL,
        service: locale === 'fr' ? 'Retrait' : 'Withdrawal',
        date: '2026-08-06',
        startMinutes: 12 * 60,
        endsMinutes: 9 * 60 + 45,
        link: OFFER_LINK,
      }),
    ],
    queue_sms_answer: () => [
      joinedText({
        locale,
        place: LITTORAL,
        number: 'A-042',
        position: 3,
        estimate: { min_minutes: 10, max_minutes: 20 },
      }),
      fixedText('help', locale),
    ],
  };
  return texts[kind as keyof typeof texts]();
}

const CHANNEL = { sms: 'SMS', email: 'e-mail', push: 'web push', whatsapp: 'WhatsApp' } as const;

/** The free channel first and the SMS after it, or the channels as listed. */
function channelsOf(k: MessageKind): string {
  if (k.freeFirstMs === null) return k.channels.map((c) => CHANNEL[c]).join(', ');
  const minutes = k.freeFirstMs / 60_000;
  const after = `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `web push to a subscribed phone, else WhatsApp to a customer who asked for it (where configured); then SMS after ${after} unless it was shown or delivered; SMS at once without either`;
}
const QUIET =
  "held from 21:00 to 07:00 on the organization's clock: one queued then is due at 07:00";

function section(kind: CustomerMessageKind): string {
  const k: MessageKind = MESSAGE_KINDS[kind];
  const lines = [
    `### \`${kind}\``,
    '',
    `- **When:** ${k.when}.`,
    `- **To:** ${k.to}.`,
    `- **Channels:** ${channelsOf(k)}.`,
    `- **Dedupe key:** \`${k.dedupe}\`.`,
    `- **Not sent when:** ${k.stale}.`,
    `- **Quiet hours:** ${k.quiet ? QUIET : 'sent at any hour'}.`,
    `- **Per-number cap:** ${k.capped ? 'counted, and held back once the number reached it' : 'never held back, not counted'}.`,
  ];
  for (const locale of LOCALES) {
    lines.push(`- **SMS (${locale}):**`);
    for (const text of examples(kind, locale)) lines.push(`  - \`${text}\``);
  }
  return lines.join('\n');
}

function render(): string {
  return [
    BEGIN,
    '| kind | channels | dedupe key | not sent when | 21:00–07:00 | cap |',
    '|---|---|---|---|---|---|',
    ...CUSTOMER_MESSAGE_KINDS.map((kind) => {
      const k: MessageKind = MESSAGE_KINDS[kind];
      return `| \`${kind}\` | ${k.channels.map((c) => CHANNEL[c]).join(', ')} | \`${k.dedupe}\` | ${k.stale} | ${k.quiet ? 'held until 07:00' : 'sent'} | ${k.capped ? 'counted' : 'no'} |`;
    }),
    '',
    ...CUSTOMER_MESSAGE_KINDS.map(section).flatMap((s) => [s, '']),
    END,
  ].join('\n');
}

describe('docs/messages.md', () => {
  it('lists every kind of customer message, with its key, channels and texts in both languages', () => {
    let doc = readFileSync(DOC, 'utf8');
    const begin = doc.indexOf(BEGIN);
    const end = doc.indexOf(END);
    expect(begin, 'docs/messages.md has no generated part').toBeGreaterThanOrEqual(0);
    if (process.env.QLESS_WRITE_DOCS === '1') {
      doc = doc.slice(0, begin) + render() + doc.slice(end + END.length);
      writeFileSync(DOC, doc);
    }
    expect(doc.slice(begin, doc.indexOf(END) + END.length)).toBe(render());
    for (const kind of CUSTOMER_MESSAGE_KINDS) expect(doc).toContain(`### \`${kind}\``);
  });

  it('says when each kind stops being worth sending, and every example is in the GSM alphabet', () => {
    for (const kind of CUSTOMER_MESSAGE_KINDS) {
      const k: MessageKind = MESSAGE_KINDS[kind];
      if (k.usefulForMs !== null) expect(k.stale, kind).toMatch(/late/);
      for (const locale of LOCALES) {
        for (const text of examples(kind, locale)) expect(gsmLength(text), text).not.toBeNull();
      }
    }
  });
});
