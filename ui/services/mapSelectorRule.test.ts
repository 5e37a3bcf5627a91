import { describe, expect, it } from 'vitest';
import { mapSelectorWanted } from './mapSelectorRule.ts';

describe('map-selector rule (SPEC §2)', () => {
  it.each<[number, string, string, boolean, boolean]>([
    [11, 'wind', 'leaflet', false, false],
    [11.01, 'wind', 'leaflet', false, true],
    [14, 'wind', 'globe', false, false],
    [14, 'wind', 'leaflet', true, true],
    [11, 'wind', 'leaflet', true, false],
    [9, 'topoMap', 'leaflet', true, true],
    [9, 'topoMap', 'leaflet', false, false],
  ])('zoom %s, overlay %s, %s, open %s -> %s', (zoom, overlay, library, open, wanted) => {
    expect(mapSelectorWanted(zoom, overlay, library, open)).toBe(wanted);
  });
});
