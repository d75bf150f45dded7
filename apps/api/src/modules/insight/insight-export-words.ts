/**
 * The words of Insight's CSV in its two formats (decision 122). `csv` is the standard file:
 * machine names (`no_show`), English service names, commas, decimal points — what a script or
 * another tool reads. `excel-fr` is the file a French screen downloads: what Excel set to
 * French opens as a table — French headers and labels, the French service name when there is
 * one, ";" between fields, a decimal comma, and a column that says where a transfer went or
 * came from (a transferred visit is two rows with one number).
 */
import type { InsightExportFormat, InsightExportKind, VisitSource } from '@qless/contract';

export interface CsvDialect {
  separator: ',' | ';';
  decimalComma: boolean;
  french: boolean;
}

export function dialectOf(format: InsightExportFormat | undefined): CsvDialect {
  return format === 'excel-fr'
    ? { separator: ';', decimalComma: true, french: true }
    : { separator: ',', decimalComma: false, french: false };
}

/** The file's name: the kind in the file's language, and two validated dates. */
export function exportFilename(
  kind: InsightExportKind,
  from: string,
  to: string,
  dialect: CsvDialect,
): string {
  const word = dialect.french ? (kind === 'visits' ? 'visites' : 'reservations') : kind;
  return `qless-${word}-${from}-${to}.csv`;
}

export function exportHeader(
  kind: InsightExportKind,
  timeZone: string,
  dialect: CsvDialect = dialectOf('csv'),
): string[] {
  const z = (name: string) => `${name} (${timeZone})`;
  if (dialect.french) {
    return kind === 'visits'
      ? [
          'Date',
          'Agence',
          'Numéro',
          'Service',
          'Origine',
          'État',
          'Transfert',
          'Client',
          'Guichet',
          z('Arrivée'),
          z('Entrée dans la file'),
          z('Appel'),
          z('Début du service'),
          z('Fin'),
          'Attente (min)',
          'Durée du service (min)',
          'Rappels',
        ]
      : [
          'Date',
          'Agence',
          z('Heure du créneau'),
          'Service',
          'Statut',
          'Client',
          'Code du ticket',
          z('Confirmée le'),
          z('Arrivée le'),
          z('Statut changé le'),
          'Annulée par',
          'Reports',
        ];
  }
  return kind === 'visits'
    ? [
        'visit_date',
        'branch',
        'number',
        'service',
        'source',
        'state',
        'customer_name',
        'counter',
        z('arrived_at'),
        z('queued_at'),
        z('called_at'),
        z('serving_at'),
        z('ended_at'),
        'wait_minutes',
        'service_minutes',
        'recalls',
      ]
    : [
        'booking_date',
        'branch',
        z('slot_start'),
        'service',
        'status',
        'customer_name',
        'ticket_code',
        z('confirmed_at'),
        z('checked_in_at'),
        z('status_changed_at'),
        'cancelled_by',
        'reschedule_count',
      ];
}

const VISIT_STATE_FR: Record<string, string> = {
  waiting: 'En attente',
  called: 'Appelé',
  serving: 'En cours de service',
  done: 'Servi',
  no_show: 'Absent',
  left: 'Parti',
  transferred: 'Transféré',
};

const VISIT_SOURCE_FR: Record<VisitSource, string> = {
  booking: 'Réservation',
  staff: 'Sans rendez-vous (accueil)',
  self: 'Sans rendez-vous (QR)',
  kiosk: 'Sans rendez-vous (borne)',
  sms: 'Sans rendez-vous (SMS)',
};

const BOOKING_STATUS_FR: Record<string, string> = {
  held: 'En attente de paiement',
  confirmed: 'Confirmée',
  expired: 'Expirée',
  cancelled: 'Annulée',
  checked_in: 'Arrivé',
  no_show: 'Absent',
};

const CANCELLED_BY_FR: Record<string, string> = {
  customer: 'Client',
  organization: 'Organisation',
};

/** A machine value in French, or as it is when the list does not know it yet. */
const label = (list: Record<string, string>, value: string | null) =>
  value === null ? null : (list[value] ?? value);

export const visitStateFr = (state: string) => label(VISIT_STATE_FR, state);
export const visitSourceFr = (source: string) => label(VISIT_SOURCE_FR, source);
export const bookingStatusFr = (status: string) => label(BOOKING_STATUS_FR, status);
export const cancelledByFr = (by: string | null) => label(CANCELLED_BY_FR, by);

/** "Transféré vers Caisse" / "Transféré depuis Accueil": the other row of the same number. */
export function transferFr(to: string | null, from: string | null): string | null {
  const parts = [
    from !== null ? `Transféré depuis ${from}` : null,
    to !== null ? `Transféré vers ${to}` : null,
  ].filter((p): p is string => p !== null);
  return parts.length > 0 ? parts.join(' ; ') : null;
}
