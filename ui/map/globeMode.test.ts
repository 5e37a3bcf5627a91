import { afterEach, describe, expect, it } from 'vitest';
import { createAppState } from '../state/appState.ts';
import { mapSelectorWanted } from '../services/mapSelectorRule.ts';
import { showGlobe, shownOnGlobe, startGlobeMode } from './globeMode.ts';

const stops: (() => void)[] = [];
afterEach(() => stops.splice(0).forEach((stop) => stop()));

function app() {
  const state = createAppState('', 'en', {});
  state.map.setSize(1280, 720, 1);
  stops.push(() => state.dispose());
  stops.push(startGlobeMode(state));
  return state;
}

describe('globe mode (SPEC §2 window "globe", §5 mapLibrary)', () => {
  it('follows the setting mapLibrary: the globe button sets it, the flat map button takes the library used before', () => {
    const a = app();
    a.settings.set('mapLibrary', 'maplibre');
    expect(a.map.globe.value).toBe(false);
    showGlobe(a, true);
    expect(a.settings.get('mapLibrary')).toBe('globe');
    expect(a.map.globe.value).toBe(true);
    expect(a.map.view.value.globe).toBe(true);
    showGlobe(a, false);
    expect(a.settings.get('mapLibrary')).toBe('maplibre');
    expect(a.map.globe.value).toBe(false);
  });

  it('opens on the globe when the setting says so, and the map-selector stays shut there', () => {
    const a = createAppState('', 'en', {});
    stops.push(() => a.dispose());
    a.settings.set('mapLibrary', 'globe');
    stops.push(startGlobeMode(a));
    expect(a.map.globe.value).toBe(true);
    expect(mapSelectorWanted(12, a.layer.overlay.value, a.settings.get('mapLibrary') as string, false)).toBe(false);
  });

  it('leaves out overlays flagged unsupported on the globe only while the globe shows', () => {
    expect(shownOnGlobe({ globeNotSupported: true }, true)).toBe(false);
    expect(shownOnGlobe({ globeNotSupported: true }, false)).toBe(true);
    expect(shownOnGlobe({}, true)).toBe(true);
  });
});
