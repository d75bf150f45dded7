import { describe, expect, it } from 'vitest';
import { serviceDescription, serviceName } from './service-text';

const both = {
  service_name: 'Certification of copies',
  service_description: 'Have photocopies certified.',
  service_name_fr: 'Certification de copies',
  service_description_fr: 'Faites certifier des photocopies.',
};

describe('service texts', () => {
  it('are French in French, English in English', () => {
    expect(serviceName(both, 'fr')).toBe('Certification de copies');
    expect(serviceDescription(both, 'fr')).toBe('Faites certifier des photocopies.');
    expect(serviceName(both, 'en')).toBe('Certification of copies');
  });
  it('fall back to English when the French is missing, blank or unknown (older state)', () => {
    expect(serviceName({ ...both, service_name_fr: null }, 'fr')).toBe('Certification of copies');
    expect(serviceName({ ...both, service_name_fr: '  ' }, 'fr')).toBe('Certification of copies');
    const { service_description_fr: _, ...old } = both;
    expect(serviceDescription(old, 'fr')).toBe('Have photocopies certified.');
  });
});
