/** What the bench's figures share: the API's prefix, its JSON reads and a mean. */
export const API = '/api/v1';

export interface TakenJson {
  seats_taken: { booking_date: string; slot_id: string; taken: number }[];
  bookings: { booking_date: string; slot_id: string }[];
}

export async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

export const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
