import type { VisitTurn } from '@qless/contract';
import { describe, expect, it } from 'vitest';
import { en } from '../../../i18n/en';
import { fr } from '../../../i18n/fr';
import { interpolate } from '../../../i18n/i18n';
import { turnMessage } from './turn-card';

const turn = (state: VisitTurn['state'], counter: string): VisitTurn => ({
  visit_id: '00000000-0000-4000-8000-000000000001',
  number: 'C-005',
  state,
  organization_name: 'Banque du Littoral (Agence Akwa)',
  service_name: 'Cash desk',
  service_name_fr: 'Caisse',
  position: null,
  estimate: null,
  counters_open: true,
  counter_name: counter,
  called_at: null,
  recalls: 0,
});
type T = Parameters<typeof turnMessage>[1];
const tOf = (catalog: Record<string, string>) =>
  ((key: string, params?: Record<string, string | number>) =>
    interpolate(catalog[key] ?? key, params ?? {})) as unknown as T;
const nbsp = (s: string) => s.replace(/\u00a0/g, ' ');

describe('the visitor’s sentence names the counter with the right French words', () => {
  it('au Guichet, à la Caisse, à l’Accueil; English unchanged', () => {
    const said = (state: VisitTurn['state'], counter: string, locale: 'en' | 'fr') =>
      nbsp(turnMessage(turn(state, counter), tOf(locale === 'fr' ? fr : en), locale));
    expect(said('called', 'Guichet 3', 'fr')).toBe('Allez au Guichet 3');
    expect(said('called', 'Caisse 5', 'fr')).toBe('Allez à la Caisse 5');
    expect(said('serving', 'Accueil 6', 'fr')).toBe('On s’occupe de vous à l’Accueil 6');
    expect(said('called', 'Caisse 5', 'en')).toBe('Go to Caisse 5');
  });
});
