import { describe, expect, it } from 'vitest';
import { localizedServiceName, localizedText } from './localized-name.js';

describe('localizedText (one rule for service names, server and web)', () => {
  it('gives the French text in French, the base text in English', () => {
    expect(localizedText('Account opening', 'Ouverture de compte', 'fr')).toBe(
      'Ouverture de compte',
    );
    expect(localizedText('Account opening', 'Ouverture de compte', 'en')).toBe('Account opening');
  });
  it('falls back to the base text only when no French was written (null, missing, blank)', () => {
    expect(localizedText('Account opening', null, 'fr')).toBe('Account opening');
    expect(localizedText('Account opening', undefined, 'fr')).toBe('Account opening');
    expect(localizedText('Account opening', '   ', 'fr')).toBe('Account opening');
  });
  it('reads the names of any shape that carries them', () => {
    const service = { service_name: 'Loan', service_name_fr: 'Prêt' };
    expect(localizedServiceName(service, 'fr')).toBe('Prêt');
    expect(localizedServiceName({ service_name: 'Loan' }, 'fr')).toBe('Loan');
  });
});
