import { formatMinutes } from '@qless/contract';

/** "HH:MM:SS" from a `time` column → minutes since midnight. */
export function timeToMinutes(value: string): number {
  const [h, m] = value.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/** Minutes since midnight → a `time` literal. 24:00 is the end of the day. */
export function minutesToTime(minutes: number): string {
  return minutes >= 24 * 60 ? '24:00:00' : `${formatMinutes(minutes)}:00`;
}
