import { useEffect, useState } from 'react';
import type { DeviceBooking } from '../../../lib/device-bookings';
import { RESUME_CHANGED_EVENT, resumableBooking } from './resume';

/** The booking to bring the customer back to (see resumableBooking), kept current. */
export function useResumableBooking(): DeviceBooking | null {
  const [entry, setEntry] = useState(() => resumableBooking(new Date()));
  useEffect(() => {
    const update = () => setEntry(resumableBooking(new Date()));
    addEventListener(RESUME_CHANGED_EVENT, update);
    // Another tab paid, cancelled or started a payment.
    addEventListener('storage', update);
    return () => {
      removeEventListener(RESUME_CHANGED_EVENT, update);
      removeEventListener('storage', update);
    };
  }, []);
  return entry;
}
