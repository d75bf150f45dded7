import { describe, expect, it } from 'vitest';
import { formatLocalPhone } from './phone-format';

describe('formatLocalPhone', () => {
  it('groups digits by three', () => {
    expect(formatLocalPhone('+237677123456')).toBe('677 123 456');
    expect(formatLocalPhone('677123456')).toBe('677 123 456');
  });
  it('leaves what is not a Cameroonian mobile as it was', () => {
    expect(formatLocalPhone('+33612345678')).toBe('+33612345678');
  });
});
