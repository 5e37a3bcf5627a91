import { describe, expect, it } from 'vitest';
import { SEARCH_RECENTS_MAX, type SearchResult } from '../../../common/api/search.ts';
import { isSearchResult, readRecents, recentsStore, withRecent } from './searchRecents.ts';

const place = (name: string, lat = 50, lon = 14, type: SearchResult['type'] = 'city'): SearchResult => ({ type, name, country: 'Czechia', cc: 'CZ', lat, lon });

describe('search recents', () => {
  it('puts the picked place first, once, and keeps at most the maximum', () => {
    const prague = place('Prague');
    const brno = place('Brno', 49.2, 16.6);
    expect(withRecent([], prague)).toEqual([prague]);
    expect(withRecent([brno, prague], prague)).toEqual([prague, brno]);
    // The same place found again a little off (SPEC §9 same-location tolerance) replaces the old entry.
    expect(withRecent([place('Prague', 50.005, 14.005)], prague)).toEqual([prague]);
    // Another kind of result at the same place is another entry.
    expect(withRecent([place('Prague', 50, 14, 'airport')], prague)).toHaveLength(2);
    const many = Array.from({ length: 20 }, (_, i) => place(`P${i}`, i, i));
    expect(withRecent(many, prague)).toHaveLength(SEARCH_RECENTS_MAX);
    expect(withRecent(many, prague)[0]).toBe(prague);
  });

  it.each<[string, unknown, boolean]>([
    ['a city', place('Prague'), true],
    ['an airport with codes', { ...place('Václav Havel Airport Prague'), type: 'airport', icao: 'LKPR', iata: 'PRG' }, true],
    ['coordinates', { type: 'coords', name: '48.850, 2.350', country: '', cc: '', lat: 48.85, lon: 2.35 }, true],
    ['null', null, false],
    ['a string', 'Prague', false],
    ['an unknown type', { ...place('Prague'), type: 'street' }, false],
    ['no name', { ...place(''), name: '' }, false],
    ['a latitude out of range', place('X', 91, 0), false],
    ['a text latitude', { ...place('X'), lat: '50' }, false],
    ['a numeric code', { ...place('X'), icao: 5 }, false],
  ])('checks stored entries: %s', (_, entry, valid) => {
    expect(isSearchResult(entry)).toBe(valid);
  });

  it('reads the valid entries of a stored value and drops the rest', () => {
    expect(readRecents(undefined)).toEqual([]);
    expect(readRecents({ Prague: 1 })).toEqual([]);
    expect(readRecents([place('Prague'), 'junk', null, place('Brno')])).toEqual([place('Prague'), place('Brno')]);
  });

  it('lives in memory without IndexedDB', async () => {
    const store = recentsStore();
    expect(await store.list()).toEqual([]);
    await store.add(place('Prague'));
    await store.add(place('Brno', 49.2, 16.6));
    expect((await recentsStore().list()).map((r) => r.name)).toEqual(['Brno', 'Prague']);
  });
});
