import { describe, expect, it } from 'vitest';
import { searchedCity } from './searched-city';

describe('searchedCity', () => {
  const cities = ['Bafoussam', 'Douala', 'Yaoundé'];

  it('finds the city a search names, accents and case aside, alone or among other words', () => {
    expect(searchedCity(cities, 'yaounde')).toBe('Yaoundé');
    expect(searchedCity(cities, '  Banque DOUALA ')).toBe('Douala');
    // A city typed in part, as the catalogue's search finds it.
    expect(searchedCity(cities, 'bafou')).toBe('Bafoussam');
  });

  it('names none for a search of the name, a blank one, a too short one or no cities', () => {
    expect(searchedCity(cities, 'hauts plateaux')).toBeNull();
    expect(searchedCity(cities, '  ')).toBeNull();
    expect(searchedCity(cities, 'ba')).toBeNull();
    expect(searchedCity(undefined, 'douala')).toBeNull();
  });
});
