import { useEffect, useState } from 'react';
import { dropEmbeddedNow, useEmbeddedData } from '../../../lib/embedded-data';

const MINUTE = 60_000;

/**
 * "Now", refreshed every minute so slots grey out as time passes. A server-rendered page
 * starts from the time it was rendered at (the same markup on both sides), then the
 * browser's clock takes over.
 */
export function useNow(): Date {
  const rendered = useEmbeddedData().now;
  const [now, setNow] = useState(() => (rendered ? new Date(rendered) : new Date()));
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, after the first render.
  useEffect(() => {
    if (rendered) {
      dropEmbeddedNow();
      setNow(new Date());
    }
    const timer = setInterval(() => setNow(new Date()), MINUTE);
    return () => clearInterval(timer);
  }, []);
  return now;
}
