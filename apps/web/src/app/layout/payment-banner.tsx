import { useLocation } from 'wouter';
import { ResumeBanner } from '../../features/payments/components/resume-banner';
import { href, paths } from '../paths';

const ticketPath = (code: string, accessKey: string) => paths.ticket.build(code, { k: accessKey });

/** Under the header on every page: a payment left in flight, or just paid, on this device. */
export function PaymentBanner() {
  const [location] = useLocation();
  return (
    <ResumeBanner
      location={location}
      slotsPath={paths.slots.build}
      ticketPath={ticketPath}
      href={href}
    />
  );
}
