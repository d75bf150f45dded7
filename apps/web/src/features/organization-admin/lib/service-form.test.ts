import { describe, expect, it } from 'vitest';
import { EMPTY_SERVICE, readServiceForm } from './service-form';

const valid = {
  ...EMPTY_SERVICE,
  service_name: ' Account opening ',
  service_description: 'Open a current account',
  duration: '30',
};

describe('readServiceForm', () => {
  it('builds the request, trimmed, with empty French fields as null', () => {
    expect(readServiceForm(valid)).toEqual({
      ok: true,
      request: {
        service_name: 'Account opening',
        service_description: 'Open a current account',
        duration: 30,
        service_name_fr: null,
        service_description_fr: null,
      },
    });
  });
  it('sends the capacity and French texts when given', () => {
    const result = readServiceForm({
      ...valid,
      capacity: '3',
      service_name_fr: 'Ouverture de compte',
      service_description_fr: 'Ouvrir un compte courant',
    });
    expect(result.ok && result.request).toMatchObject({
      capacity: 3,
      service_name_fr: 'Ouverture de compte',
      service_description_fr: 'Ouvrir un compte courant',
    });
  });
  it('reads the duration as a base-10 whole number of 5 to 720 minutes', () => {
    expect(readServiceForm({ ...valid, duration: '08' })).toMatchObject({
      ok: true,
      request: { duration: 8 },
    });
    for (const duration of ['', '4', '721', '15.5', '1e2', '0x10', '-5', 'ten']) {
      expect(readServiceForm({ ...valid, duration }), duration).toEqual({
        ok: false,
        errors: { duration: 'error.INVALID_DURATION' },
      });
    }
  });
  it('requires a name and a description', () => {
    expect(readServiceForm({ ...valid, service_name: '  ', service_description: '' })).toEqual({
      ok: false,
      errors: {
        service_name: 'serviceForm.error.name',
        service_description: 'serviceForm.error.description',
      },
    });
  });
  it('refuses a capacity outside 1 to 100', () => {
    for (const capacity of ['0', '101', '2.5']) {
      expect(readServiceForm({ ...valid, capacity })).toEqual({
        ok: false,
        errors: { capacity: 'error.INVALID_CAPACITY' },
      });
    }
  });

  it('in French, asks for French first: the French texts become the base when English is left empty', () => {
    const french = {
      ...EMPTY_SERVICE,
      service_name_fr: ' Ouverture de compte ',
      service_description_fr: 'Ouvrir un compte courant',
      duration: '30',
    };
    expect(readServiceForm(french, 'fr')).toEqual({
      ok: true,
      request: {
        service_name: 'Ouverture de compte',
        service_description: 'Ouvrir un compte courant',
        duration: 30,
        service_name_fr: 'Ouverture de compte',
        service_description_fr: 'Ouvrir un compte courant',
      },
    });
    // The English given too is kept as the base.
    const both = { ...french, service_name: 'Account opening', service_description: 'Open one' };
    expect(readServiceForm(both, 'fr')).toMatchObject({
      ok: true,
      request: { service_name: 'Account opening', service_name_fr: 'Ouverture de compte' },
    });
    // Nothing written: the error is on the French field, the one that was asked for.
    expect(readServiceForm({ ...EMPTY_SERVICE, duration: '30' }, 'fr')).toEqual({
      ok: false,
      errors: {
        service_name_fr: 'serviceForm.error.name',
        service_description_fr: 'serviceForm.error.description',
      },
    });
    // In English, French alone is not enough (the base text is English there).
    expect(readServiceForm(french, 'en')).toMatchObject({
      ok: false,
      errors: { service_name: 'serviceForm.error.name' },
    });
  });
});
