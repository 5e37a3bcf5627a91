import { describe, expect, it } from 'vitest';
import { formatSearch } from '../../common/url.ts';
import { createAppState } from './appState.ts';
import { PANELS } from '../panels/panels.ts';
import { urlStateOf } from '../services/urlSync.ts';

describe('isolines (SPEC §3 isolinesOn / isolinesType, URL item i:)', () => {
  it('are off by default; the types offered are the product\'s model definition\'s', () => {
    const app = createAppState('?wind,50.087,14.421,6,ecmwf', 'en-GB', PANELS);
    expect(app.isolines.on.value).toBe(false);
    expect(app.isolines.shown.value).toBeNull();
    expect(app.isolines.offered.value).toEqual(app.layer.productDef.value.isolines);
    expect(urlStateOf(app).isolines).toBeUndefined();
    app.dispose();
  });

  it('i:{type} in the address turns them on with that type, and the address keeps it', () => {
    const app = createAppState('?wind,50.087,14.421,6,ecmwf,i:gh', 'en-GB', PANELS);
    expect(app.isolines.on.value).toBe(true);
    expect(app.isolines.type.value).toBe('gh');
    expect(app.isolines.shown.value).toBe('gh');
    expect(formatSearch(urlStateOf(app))).toContain('i:gh');
    app.dispose();
  });

  it('an unknown type in the address is ignored', () => {
    const app = createAppState('?wind,50.087,14.421,6,ecmwf,i:zz', 'en-GB', PANELS);
    expect(app.isolines.on.value).toBe(false);
    expect(formatSearch(urlStateOf(app))).not.toContain('i:');
    app.dispose();
  });

  it('a product that does not offer the chosen type draws none; choosing refuses a type not offered', () => {
    const app = createAppState('?waves,50.087,14.421,6,gfsWave,i:pressure', 'en-GB', PANELS);
    expect(app.layer.productDef.value.isolines).toEqual([]);
    expect(app.isolines.shown.value).toBeNull();
    expect(app.isolines.choose('gh')).toBe(false);
    // The choice stays in the link for the next product.
    expect(formatSearch(urlStateOf(app))).toContain('i:pressure');
    app.dispose();
  });

  it('choosing a type turns isolines on; turning them off removes the item', () => {
    const app = createAppState('?wind,50.087,14.421,6,ecmwf', 'en-GB', PANELS);
    expect(app.isolines.choose('pressure')).toBe(true);
    expect(app.isolines.shown.value).toBe('pressure');
    app.isolines.setOn(false);
    expect(app.isolines.shown.value).toBeNull();
    expect(urlStateOf(app).isolines).toBeUndefined();
    app.dispose();
  });
});
