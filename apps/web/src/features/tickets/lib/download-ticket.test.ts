import { describe, expect, it } from 'vitest';
import { ticketFileName } from './download-ticket';

describe('ticketFileName', () => {
  it('names the file after the product', () => {
    expect(ticketFileName('Qless')).toBe('qless_appointment_ticket.pdf');
    expect(ticketFileName('Q Less!')).toBe('q_less_appointment_ticket.pdf');
  });
});
