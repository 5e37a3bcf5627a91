import { describe, expect, it } from 'vitest';
import { foldName } from './fold.ts';
import { seededRandom } from '../../common/seededRandom.ts';
import { distanceKm, PlaceIndex, type Place } from './placeIndex.ts';

describe('foldName', () => {
  it.each([
    ['Zürich', 'zurich'],
    ['Saint-Étienne', 'saint etienne'],
    ['Łódź', 'lodz'],
    ['Straße', 'strasse'],
    ['Ærøskøbing', 'aeroskobing'],
    ['São Paulo', 'sao paulo'],
    ['  New   York ', 'new york'],
    ["L'Aquila", 'l aquila'],
    ['İstanbul', 'istanbul'],
    ['Đà Nẵng', 'da nang'],
    ['Reykjavík', 'reykjavik'],
    ['Þingvellir', 'thingvellir'],
    ['Москва', 'москва'],
    ['!!!', ''],
  ])('%s -> %s', (name, folded) => {
    expect(foldName(name)).toBe(folded);
  });
});

const city = (name: string, cc: string, lat: number, lon: number, population: number, extra: Partial<Place> = {}): Place => ({
  kind: 'city', name, cc, lat, lon, population, weight: Math.log10(Math.max(1, population)), ...extra,
});
const airport = (name: string, cc: string, lat: number, lon: number, icao: string, iata: string, major: boolean, otherNames: string[] = []): Place => ({
  kind: 'airport', name, cc, lat, lon, population: 0, weight: major ? 6 : 4.5, icao, iata, majorAirport: major, otherNames,
});

const PLACES: Place[] = [
  city('London', 'GB', 51.50853, -0.12574, 7_556_900),
  city('London', 'CA', 42.98339, -81.23304, 346_765),
  city('Londonderry', 'GB', 54.9981, -7.30934, 83_652),
  city('New London', 'US', 41.35565, -72.09952, 27_179),
  city('New York City', 'US', 40.71427, -74.00597, 8_804_190),
  city('Zürich', 'CH', 47.36667, 8.55, 341_730),
  city('Zürich (Kreis 1)', 'CH', 47.37, 8.54, 5_000, { section: true }),
  city('Paris', 'FR', 48.85341, 2.3488, 2_138_551),
  city('Paris', 'US', 33.66094, -95.55551, 24_782),
  city('Prague', 'CZ', 50.08804, 14.42076, 1_165_581),
  city('Prato', 'IT', 43.8777, 11.10222, 185_456),
  city('Mád', 'HU', 48.19, 21.28, 1_000),
  airport('London Heathrow Airport', 'GB', 51.4706, -0.461941, 'EGLL', 'LHR', true, ['London', 'LON', 'Londres']),
  airport('Lakefront Airport', 'US', 30.04, -90.03, 'KNEW', 'NEW', false, ['New Orleans']),
];
const index = new PlaceIndex(PLACES);
const names = (text: string, near?: { lat: number; lon: number }, limit = 10) =>
  index.search(text, { limit, near }).map((r) => `${r.place.name} ${r.place.cc}`);

describe('PlaceIndex.search', () => {
  it('ranks exact names first, then by population', () => {
    expect(names('london')).toEqual([
      'London GB', 'London CA', 'London Heathrow Airport GB', 'Londonderry GB', 'New London US',
    ]);
  });

  it('ranks nearer places higher when the client says where its map is', () => {
    expect(names('london', { lat: 43, lon: -81 })[0]).toBe('London CA');
    expect(names('paris', { lat: 33.6, lon: -95.5 })[0]).toBe('Paris US');
    expect(names('paris')[0]).toBe('Paris FR');
  });

  it('matches names without their diacritics and with them', () => {
    expect(names('zurich')).toEqual(['Zürich CH', 'Zürich (Kreis 1) CH']);
    expect(names('ZÜRICH')[0]).toBe('Zürich CH');
    expect(names('mad')).toEqual(['Mád HU']);
  });

  it('finds airports by ICAO, IATA, name, town and keywords', () => {
    expect(names('EGLL')).toEqual(['London Heathrow Airport GB']);
    expect(names('egll')).toEqual(['London Heathrow Airport GB']);
    expect(names('LHR')).toEqual(['London Heathrow Airport GB']);
    expect(names('heathrow')).toEqual(['London Heathrow Airport GB']);
    expect(names('londres')).toEqual(['London Heathrow Airport GB']);
    // A minor airport's IATA code ranks with the names that start with the query.
    expect(names('new')).toEqual(['New York City US', 'Lakefront Airport US', 'New London US']);
  });

  it('finds later words of a name', () => {
    expect(names('york')).toEqual(['New York City US']);
    expect(names('lond')[0]).toBe('London GB');
    expect(names('london', undefined, 10)).toContain('New London US');
  });

  it('keeps the best `limit` and never returns a place twice', () => {
    expect(names('london', undefined, 2)).toEqual(['London GB', 'London CA']);
    const all = names('l', undefined, 50);
    expect(new Set(all).size).toBe(all.length);
    expect(names('')).toEqual([]);
    expect(names('!!!')).toEqual([]);
    expect(names('qqqqzzz')).toEqual([]);
  });
});

describe('PlaceIndex.search by alternate names', () => {
  const alternates = new PlaceIndex([
    city('Munich', 'DE', 48.137, 11.575, 1_260_391),
    city('Münchenstein', 'CH', 47.518, 7.617, 12_000),
    city('Garching bei München', 'DE', 48.249, 11.651, 17_000),
    city('Prague', 'CZ', 50.088, 14.421, 1_165_581),
    city('Pretoria', 'ZA', -25.745, 28.188, 1_619_438),
    city('Hof', 'AT', 47.35, 13.33, 1_300),
    city('Dvorce', 'CZ', 49.83, 17.55, 1_500),
  ]);
  // Munich (0), Pretoria (4) and Dvorce (6) by their other names, folded and sorted as alternateEntries gives them.
  const other: [string, number][] = [['munchen', 0], ['monaco di baviera', 0], ['мюнхен', 0], ['praetoria', 4], ['hof', 6]];
  other.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  alternates.addAlternates(other.map(([key]) => key), Int32Array.from(other, ([, place]) => place));
  const found = (text: string) => alternates.search(text, { limit: 10 }).map((r) => `${r.place.name} ${r.tier}`);

  it('ranks an exact alternate name first, above names that start with the query', () => {
    expect(found('München')).toEqual(['Munich 0', 'Garching bei München 1', 'Münchenstein 1']);
    expect(found('Мюнхен')).toEqual(['Munich 0']);
  });

  it('ranks a big place\'s alternate prefix with the names that start with the query, as a smaller place', () => {
    // Munich by "münch": above a Swiss town of 12 000, for Munich counts as a place 30x smaller.
    expect(found('münch')).toEqual(['Munich 1', 'Münchenstein 1', 'Garching bei München 2']);
    // Prague by its name above Pretoria by "Praetoria", though Pretoria is bigger.
    expect(found('pra')).toEqual(['Prague 1', 'Pretoria 1']);
  });

  it('ranks a small place\'s own name above a place of its size known by it too', () => {
    expect(found('hof')).toEqual(['Hof 0', 'Dvorce 0']);
  });
});

describe('PlaceIndex.nearest', () => {
  it('finds the nearest place within the radius that passes the filter', () => {
    expect(index.nearest(48.853, 2.349, 10)?.place.name).toBe('Paris');
    expect(index.nearest(48.853, 2.349, 10)!.km).toBeLessThan(0.1);
    expect(index.nearest(0, -30, 500)).toBeNull();
    expect(index.nearest(51.47, -0.46, 30, (p) => p.kind === 'city')?.place.name).toBe('London');
    expect(index.nearest(51.47, -0.46, 30)?.place.kind).toBe('airport');
  });

  it('looks across the antimeridian and near the poles', () => {
    const wrap = new PlaceIndex([city('East', 'FJ', -17, 179.9, 1000), city('West', 'WS', -17, -179.95, 1000)]);
    expect(wrap.nearest(-17, -179.99, 50)?.place.name).toBe('West');
    expect(wrap.nearest(-17, 179.91, 50)?.place.name).toBe('East');
    expect(wrap.nearest(-17, 180, 10)?.place.name).toBe('West');
    const polar = new PlaceIndex([city('Alert', 'CA', 82.5, -62.3, 1000)]);
    expect(polar.nearest(82.6, 100, 2000)?.place.name).toBe('Alert');
  });

  it('measures great-circle distances', () => {
    expect(distanceKm(51.5, 0, 48.85, 2.35)).toBeCloseTo(343, -1);
    expect(distanceKm(0, 179.9, 0, -179.9)).toBeCloseTo(22.2, 0);
  });
});

describe('PlaceIndex.search work', () => {
  // What a query costs is counted in places read, whatever the machine: a scan of every place reads
  // them all. How fast the real index answers is the bench's figure (bench/search.ts).
  const random = seededRandom(0x5ea2c4);
  const many: Place[] = Array.from({ length: 20_000 }, (_, i) => city(`Pl${i.toString(36)}`, 'XX', random() * 160 - 80, random() * 360 - 180, Math.floor(random() * 1e6)));
  many.push(city('London', 'GB', 51.5, -0.13, 7_556_900), city('London', 'CA', 43, -81.2, 346_765));
  let reads = 0;
  const counted = new Proxy(many, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver);
    },
  });
  const big = new PlaceIndex(counted);
  const readsOf = (text: string) => {
    reads = 0;
    const found = big.search(text, { limit: 10 }).length;
    return { reads, found };
  };

  it('reads only the places whose names start with the query', () => {
    expect(readsOf('london')).toEqual({ reads: 2, found: 2 });
    expect(readsOf('qqq')).toEqual({ reads: 0, found: 0 });
  });

  it('reads few of the 20 000 places a short prefix matches: most cannot make the list', () => {
    const { reads, found } = readsOf('pl');
    expect(found).toBe(10);
    expect(reads).toBeLessThan(500);
  });
});
