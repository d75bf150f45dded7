import { describe, expect, it } from 'vitest';
import { bookingNumbers } from './queue-numbers';

describe('the queue numbers on the Today screen', () => {
  it('maps each booking to its visit’s number, the first (latest) visit winning', () => {
    const numbers = bookingNumbers([
      { booking_id: 'b1', number: 'A-004' },
      { booking_id: null, number: 'A-003' },
      { booking_id: 'b2', number: 'B-001' },
      { booking_id: 'b1', number: 'A-001' },
    ]);
    expect([...numbers]).toEqual([
      ['b1', 'A-004'],
      ['b2', 'B-001'],
    ]);
  });
});
