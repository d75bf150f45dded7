import { useEffect, useState } from 'react';
import type { DeviceBooking } from '../../../lib/device-bookings';
import { useHydrated } from '../../../lib/use-hydrated';
import { RESUME_CHANGED_EVENT, resumableBooking } from './resume';

/**
 * The booking to bring the customer back to (see resumableBooking), kept current. None
 * while a server-rendered page hydrates: the server cannot know this device's bookings.
 */
export function useResumableBooking(): DeviceBooking | null {
  const hydrated = useHydrated();
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
  return hydrated ? entry : null;
}
