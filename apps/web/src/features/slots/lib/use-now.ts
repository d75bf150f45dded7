import { useEffect, useState } from 'react';

const MINUTE = 60_000;

/** "Now", refreshed every minute so slots grey out as time passes. */
export function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), MINUTE);
    return () => clearInterval(timer);
  }, []);
  return now;
}
