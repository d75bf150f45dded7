import { describe, expect, it } from 'vitest';
import { validateAccessForm } from './access-form';

describe('validateAccessForm', () => {
  it('accepts a code as people type it and four digits', () => {
    expect(validateAccessForm({ code: ' ql 7k4m 2qab xc9d ', last4: '34 56' })).toEqual({
      ok: true,
      code: 'QL-7K4M-2QAB-XC9D',
      phoneLast4: '3456',
    });
    expect(validateAccessForm({ code: 'QL-7K4M-2Q', last4: '0000' })).toMatchObject({
      ok: true,
      code: 'QL-7K4M-2Q',
    });
  });

  it('says which field is missing', () => {
    expect(validateAccessForm({ code: '  ', last4: '' })).toEqual({
      ok: false,
      errors: { code: 'required', last4: 'required' },
    });
  });

  it('refuses a code that cannot be a ticket code', () => {
    // 0, O, 1, I, L and U are not in the alphabet; a wrong length is not a code.
    for (const code of ['QL-0000-2QAB-XC9D', 'QL-7K4M-2QAB', 'AB-7K4M-2QAB-XC9D', 'hello']) {
      expect(validateAccessForm({ code, last4: '1234' }), code).toEqual({
        ok: false,
        errors: { code: 'invalid' },
      });
    }
  });

  it('wants exactly four digits', () => {
    for (const last4 of ['123', '12345', '12a4', '677123456', '١٢٣٤']) {
      expect(validateAccessForm({ code: 'QL-7K4M-2QAB-XC9D', last4 }), last4).toEqual({
        ok: false,
        errors: { last4: 'invalid' },
      });
    }
  });
});
