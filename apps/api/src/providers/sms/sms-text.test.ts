import { describe, expect, it } from 'vitest';
import { gsmLength, smsParts, toGsm } from './sms-text.js';

describe('SMS parts', () => {
  it('counts GSM text 160 to one part, 153 a part beyond; extension characters twice', () => {
    expect(smsParts('a'.repeat(160))).toBe(1);
    expect(smsParts('a'.repeat(161))).toBe(2);
    expect(smsParts('a'.repeat(306))).toBe(2);
    expect(smsParts('a'.repeat(307))).toBe(3);
    expect(gsmLength('€[]')).toBe(6);
    expect(gsmLength('réservation annulée à 09:30 é è ù à É Ç')).toBe(39);
  });

  it('counts any other character as UCS-2: 70 to one part, 67 a part beyond', () => {
    expect(gsmLength('Hôpital')).toBeNull();
    expect(smsParts(`ô${'a'.repeat(69)}`)).toBe(1);
    expect(smsParts(`ô${'a'.repeat(70)}`)).toBe(2);
    expect(smsParts(`ô${'a'.repeat(134)}`)).toBe(3);
  });
});

describe('toGsm', () => {
  it('keeps the GSM letters of French and brings the rest to their plain forms', () => {
    expect(
      toGsm('Réservation confirmée\u00a0: Hôpital, août, façade, «\u202fOK\u202f», l’accueil…'),
    ).toBe('Réservation confirmée : Hopital, aout, facade, " OK ", l\'accueil...');
    expect(gsmLength(toGsm('Ça coûte 2\u00a0FCFA — île, œuvre, 中'))).not.toBeNull();
    expect(toGsm('中')).toBe('?');
  });
});
