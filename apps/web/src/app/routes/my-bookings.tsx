import { useLocation } from 'wouter';
import { TurnCard } from '../../features/queue-public/components/turn-card';
import { MyBookings } from '../../features/tickets/components/my-bookings';
import { useDocumentTitle } from '../../lib/use-document-title';
import { href, paths } from '../paths';

export default function MyBookingsRoute() {
  const [, navigate] = useLocation();
  useDocumentTitle('myBookings.title');
  return (
    <MyBookings
      // An <a href> changes only the hash: the key never reaches the server or its logs.
      ticketHref={(code, accessKey) => href(paths.ticket.build(code, { k: accessKey }))}
      slotsHref={(serviceId) => href(paths.slots.build(serviceId))}
      organizationsHref={href(paths.organizations.build())}
      openTicket={(code) => navigate(paths.ticket.build(code))}
      turn={(visitId, key) => <TurnCard visitId={visitId} accessKey={key} size="inline" />}
    />
  );
}
