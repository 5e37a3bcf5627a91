import { describe, expect, it } from 'vitest';
import { encodeLocationCode, formatSearch, parseSearch } from '../../common/url.ts';
import { createAppState } from '../state/appState.ts';
import { PANELS } from '../panels/panels.ts';
import { urlStateOf } from './urlSync.ts';

describe('the address bar follows the app (SPEC §2 "Shared URL search part", issue 12 §3 item 6)', () => {
  it('d:picker opens the picker at its m: place, and both are written back with the i: and p: items', () => {
    const code = encodeLocationCode(50.1, 14.42);
    const app = createAppState(`?rain,50.087,14.421,6,m:${code},i:pressure,p:cities,d:picker`, 'en-GB', PANELS);
    expect(app.picker.position.value).toEqual({ lat: 50.1, lon: 14.42 });
    const state = urlStateOf(app);
    expect(state).toMatchObject({ overlay: 'rain', pickerOpen: true, pickerCode: code, isolines: 'pressure', pois: 'cities' });
    expect(formatSearch(state)).toMatch(new RegExp(`^\\?rain,.*50\\.087,14\\.421,6,m:${code},i:pressure,p:cities,d:picker$`));
    app.dispose();
  });

  it('d:picker without a place opens the picker at the centre of the map; a picker opened later is written with its place', () => {
    const app = createAppState('?rain,50.087,14.421,6,d:picker', 'en-GB', PANELS);
    expect(app.picker.position.value).toEqual({ lat: 50.087, lon: 14.421 });
    app.picker.close();
    expect(parseSearch(formatSearch(urlStateOf(app))).state.pickerOpen).toBeUndefined();
    app.picker.open(-33.87, 151.21);
    const written = parseSearch(formatSearch(urlStateOf(app))).state;
    expect(written.pickerOpen).toBe(true);
    expect(written.pickerCode).toBe(encodeLocationCode(-33.87, 151.21));
    app.dispose();
  });

  it('p: follows the POI toggles: webcams, fires, tides and METARs on and off; a set the map does not draw stays as it came', () => {
    const app = createAppState('?rain,50.087,14.421,6,p:cities', 'en-GB', PANELS);
    expect(urlStateOf(app).pois).toBe('cities');
    for (const set of ['cams', 'firespots', 'tide', 'metars']) {
      app.settings.set('pois', set);
      expect(urlStateOf(app).pois).toBe(set);
    }
    app.settings.set('pois', '');
    expect(urlStateOf(app).pois).toBe('cities');
    app.dispose();
    const cams = createAppState('?rain,50.087,14.421,6,p:cams', 'en-GB', PANELS);
    expect(urlStateOf(cams).pois).toBe('cams');
    cams.settings.set('pois', '');
    expect(urlStateOf(cams).pois).toBeUndefined();
    cams.dispose();
  });
});
