import { formatMinutes, parseTimeOfDay } from '@qless/contract';

/** "HH:MM:SS" from a `time` column → minutes since midnight. */
export function timeToMinutes(value: string): number {
  const minutes = parseTimeOfDay(value);
  // The schema only stores whole minutes; anything else is a bug, not user input.
  if (minutes === null) throw new Error(`Unexpected time column value "${value}"`);
  return minutes;
}

/** Minutes since midnight → a `time` literal. 24:00 is the end of the day. */
export function minutesToTime(minutes: number): string {
  return minutes >= 24 * 60 ? '24:00:00' : `${formatMinutes(minutes)}:00`;
}
