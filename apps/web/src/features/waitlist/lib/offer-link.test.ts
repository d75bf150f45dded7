import { describe, expect, it } from 'vitest';
import { readOfferQuery } from './offer-link';

const SLOT = '0b8f3a52-6c1e-4a7b-9d2e-5f4c3b2a1d0e';

describe('readOfferQuery', () => {
  it('reads the day, the slot and the number a waitlist offer was sent to', () => {
    expect(readOfferQuery(`?date=2026-12-03&slot=${SLOT}`, '#tel=677554411')).toEqual({
      date: '2026-12-03',
      slot: SLOT,
      phone: '677554411',
    });
  });
  it('opens the slot without a number when the link carries none or a bad one', () => {
    expect(readOfferQuery(`?date=2026-12-03&slot=${SLOT}`)?.phone).toBeNull();
    expect(readOfferQuery(`?date=2026-12-03&slot=${SLOT}`, '#tel=12345')?.phone).toBeNull();
    expect(readOfferQuery(`?date=2026-12-03&slot=${SLOT}`, '#tel=<b>')?.phone).toBeNull();
  });
  it('is null without a valid day and slot', () => {
    expect(readOfferQuery('?date=3 dec&slot=x', '#tel=677554411')).toBeNull();
    expect(readOfferQuery('', '')).toBeNull();
  });
});
