import { useCallback, useEffect, useRef, useState } from 'react';
import type { Point } from './distance';

/** Why the phone gave no position: each says its own way out. */
export type GeoFailure = 'denied' | 'unavailable' | 'timeout' | 'unsupported';

export interface NearMe {
  /** The phone's position once it shared it; null before, after `clear`, on failure. */
  position: Point | null;
  locating: boolean;
  error: GeoFailure | null;
  /** Asks the phone (the browser asks the reader the first time): only on a tap. */
  locate: () => void;
  clear: () => void;
}

/** A position up to 10 minutes old will do: the reader has not left the town meanwhile. */
const OPTIONS: PositionOptions = {
  enableHighAccuracy: false,
  timeout: 15_000,
  maximumAge: 600_000,
};

/**
 * What a GeolocationPositionError's code means (1, 2, 3 as the standard numbers them: the
 * named constants are not on every browser's instances); anything else, no position.
 */
export function geoFailure(code: number): GeoFailure {
  return code === 1 ? 'denied' : code === 3 ? 'timeout' : 'unavailable';
}

/** The phone's position, asked only when the reader taps; it never leaves the page. */
export function useNearMe(): NearMe {
  const [position, setPosition] = useState<Point | null>(null);
  const [locating, setLocating] = useState(false);
  const [error, setError] = useState<GeoFailure | null>(null);
  // An answer that arrives after the page was left (or a newer tap) is dropped.
  const attempt = useRef(0);
  useEffect(
    () => () => {
      attempt.current += 1;
    },
    [],
  );

  const locate = useCallback(() => {
    const geolocation = typeof navigator === 'undefined' ? undefined : navigator.geolocation;
    setError(null);
    if (!geolocation) {
      setError('unsupported');
      return;
    }
    const mine = ++attempt.current;
    setLocating(true);
    geolocation.getCurrentPosition(
      ({ coords }) => {
        if (mine !== attempt.current) return;
        setLocating(false);
        setPosition({ latitude: coords.latitude, longitude: coords.longitude });
      },
      (failure) => {
        if (mine !== attempt.current) return;
        setLocating(false);
        setError(geoFailure(failure.code));
      },
      OPTIONS,
    );
  }, []);

  const clear = useCallback(() => {
    attempt.current += 1;
    setLocating(false);
    setPosition(null);
    setError(null);
  }, []);

  return { position, locating, error, locate, clear };
}
