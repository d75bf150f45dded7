import { describe, expect, it } from 'vitest';
import { groupedPhone, isCompletePhone, typeDigit } from './kiosk-phone';

describe('the kiosk’s phone pad', () => {
  it('takes digits up to 9, nothing else', () => {
    let typed = '';
    for (const key of '67712345678x') typed = typeDigit(typed, key);
    expect(typed).toBe('677123456');
    expect(typeDigit(typed, '9')).toBe('677123456');
  });

  it('is complete for a mobile number only, and reads grouped', () => {
    expect(isCompletePhone('677123456')).toBe(true);
    expect(isCompletePhone('77123456')).toBe(false);
    expect(isCompletePhone('277123456')).toBe(false);
    expect(groupedPhone('677123456')).toBe('6 77 12 34 56');
    expect(groupedPhone('6771')).toBe('6 77 1');
  });
});
