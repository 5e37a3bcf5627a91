import { describe, expect, it } from 'vitest';
import { formatCoordinates, parseCoordinates } from './coordinates.ts';

/** [typed, lat, lon] — seconds and minutes as the formula gives them, to 1e-6°. */
const PARSED: [string, number, number][] = [
  // Decimal degrees, signs, separators.
  ['48.85, 2.35', 48.85, 2.35],
  ['48.85,2.35', 48.85, 2.35],
  ['48.85 2.35', 48.85, 2.35],
  ['-33.9 151.2', -33.9, 151.2],
  ['-33.9, -70.65', -33.9, -70.65],
  ['+51.5; -0.12', 51.5, -0.12],
  ['48.85/2.35', 48.85, 2.35],
  ['  48.85   ,   2.35  ', 48.85, 2.35],
  ['48, 2', 48, 2],
  ['−33.9 151.2', -33.9, 151.2],
  ['90, 180', 90, 180],
  ['-90 -180', -90, -180],
  // Decimal degrees with hemisphere letters, either side, either order, any case.
  ['48.85N 2.35E', 48.85, 2.35],
  ['48.85 N, 2.35 W', 48.85, -2.35],
  ['N 48.85 E 2.35', 48.85, 2.35],
  ['S33.9 E151.2', -33.9, 151.2],
  ['2.35E 48.85N', 48.85, 2.35],
  ['33.9s 151.2e', -33.9, 151.2],
  ['48.8566° N, 2.3522° E', 48.8566, 2.3522],
  ['48.85°, 2.35°', 48.85, 2.35],
  ['48.85° 2.35°', 48.85, 2.35],
  // Degrees, minutes, seconds.
  ['48°51\'24"N 2°21\'03"E', 48.856667, 2.350833],
  ['48°51′24″N 2°21′03″E', 48.856667, 2.350833],
  ['48°51\'24\'\'N 2°21\'03\'\'E', 48.856667, 2.350833],
  ['48 51 24 N, 2 21 3 E', 48.856667, 2.350833],
  ['48 51 24 N 2 21 3 E', 48.856667, 2.350833],
  ['N48 51 24 E2 21 3', 48.856667, 2.350833],
  ['33°52\'S 151°12\'E', -33.866667, 151.2],
  ['48 51 24, 2 21 3', 48.856667, 2.350833],
  ['48 51 24 2 21 3', 48.856667, 2.350833],
  ['48°51\'24" 2°21\'3"', 48.856667, 2.350833],
  ['-33 52 12, 151 12 0', -33.87, 151.2],
  // Degrees and decimal minutes.
  ['48°51.4\'N 2°21.05\'E', 48.856667, 2.350833],
  ['48 51.4 2 21.05', 48.856667, 2.350833],
  ['0°0\'1"S 0°0\'1"W', -0.000278, -0.000278],
];

/** Text that is no coordinate pair: a place name, an incomplete or out-of-range pair. */
const REFUSED: string[] = [
  '',
  '   ',
  'Paris',
  'New York',
  'Sevilla',
  'EGLL',
  '48.85',
  '2024',
  '48.85 2.35 7',
  '48.85, 2.35, 7',
  '91, 0',
  '-90.5, 10',
  '45, 181',
  '45, -180.1',
  '48 61 24 N, 2 21 3 E',
  '48 51 60 N, 2 21 3 E',
  '48.5 30 N, 2 E',
  '48 -30 N, 2 E',
  '-48 N, 2 E',
  'N 48 S 2',
  '48 E 2 E',
  '48.85N 2.35',
  'N 48 2 N',
  '48°51\'24"N 2°21\'03"E 5°',
  '48\'51 2\'21',
  '48 51 24 2 21',
  '48.85,, 2.35',
  '48.85 2.35 Paris',
  '10 Downing Street',
  'x'.repeat(100),
  '4'.repeat(70) + ' 1',
];

describe('parseCoordinates', () => {
  it.each(PARSED)('%s -> %f, %f', (text, lat, lon) => {
    const got = parseCoordinates(text);
    expect(got).not.toBeNull();
    expect(got!.lat).toBeCloseTo(lat, 6);
    expect(got!.lon).toBeCloseTo(lon, 6);
  });

  it.each(REFUSED)('refuses %j', (text) => {
    expect(parseCoordinates(text)).toBeNull();
  });

  it('never throws on random text', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const alphabet = '0123456789 .,-+°\'"NSEWnsew/;abc′″';
    for (let n = 0; n < 2000; n++) {
      const text = Array.from({ length: Math.floor(random() * 24) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      const got = parseCoordinates(text);
      if (got) {
        expect(Math.abs(got.lat)).toBeLessThanOrEqual(90);
        expect(Math.abs(got.lon)).toBeLessThanOrEqual(180);
      }
    }
  });
});

describe('formatCoordinates', () => {
  it.each([
    [{ lat: 48.856667, lon: 2.350833 }, '48.857, 2.351'],
    [{ lat: -33.9, lon: 151.2 }, '-33.900, 151.200'],
    [{ lat: 0, lon: -0.0004 }, '0.000, 0.000'],
  ])('%j -> %s', (input, text) => {
    expect(formatCoordinates(input)).toBe(text);
  });
});
