import type { Ticket } from '@qless/contract';
import { localizedText } from '@qless/contract/core';
import type { Ref } from 'react';
import { Alert } from '../../../../components/ui/alert';
import { Icon } from '../../../../components/ui/icon';
import { useI18n } from '../../../../i18n/i18n';
import { NO_VALUE, Rows, StepHeading, WithSlot } from './step-parts';

interface Props {
  titleId: string;
  headingRef: Ref<HTMLHeadingElement>;
  ticket: Ticket;
  /** The slot's date, already formatted. */
  longDate: string;
  downloading: boolean;
  downloadError: boolean;
  onDownload: () => void;
  /** The ticket's own page (`#/ticket/{code}?k=…`) and the device's "My bookings" list. */
  ticketHref: string;
  myBookingsHref: string;
}

export function TicketStep({ ticket, ...props }: Props) {
  const { t, locale } = useI18n();
  return (
    <>
      <StepHeading id={props.titleId} headingRef={props.headingRef}>
        {t('booking.ticket.title')}
      </StepHeading>
      <Rows
        rows={[
          ['booking.row.organization', ticket.organization],
          ['booking.row.location', ticket.location],
          ['booking.row.service', localizedText(ticket.service, ticket.service_fr, locale)],
          ['booking.row.date', `${props.longDate}, ${ticket.time}`],
          ['booking.row.username', ticket.customer_name],
          ['booking.row.email', ticket.email || NO_VALUE],
          ['booking.row.phone', ticket.phone],
          ['booking.row.code', ticket.code],
        ]}
      />
      <p className="booking__kept">
        <a href={props.ticketHref}>{t('booking.ticket.page')}</a>{' '}
        <WithSlot text={t('booking.ticket.kept')} slot="link">
          <a href={props.myBookingsHref}>{t('booking.ticket.myBookings')}</a>
        </WithSlot>
      </p>
      {props.downloadError ? <Alert tone="error">{t('booking.downloadFailed')}</Alert> : null}
      <div className="modal__actions">
        <button
          type="button"
          className="btn btn--primary btn--block"
          onClick={props.onDownload}
          disabled={props.downloading}
        >
          <DownloadIcon />
          {props.downloading ? t('booking.downloading') : t('booking.download')}
        </button>
      </div>
    </>
  );
}

function DownloadIcon() {
  return (
    <Icon>
      <path d="M12 4v11m0 0-4.5-4.5M12 15l4.5-4.5M5 20h14" />
    </Icon>
  );
}
