import type { Signal } from '@preact/signals-core';
import { describe, expect, it } from 'vitest';
import { productCovers } from '../../common/catalogue/layerRules.ts';
import { PRODUCTS } from '../../common/catalogue/products.ts';
import { createAppState } from './appState.ts';
import { PANELS } from '../panels/panels.ts';
import type { ServedProduct } from './dataModel.ts';
import { acceptOverlayOffer, chooseOverlay, nearestProductWith, overlayOffer } from './layerActions.ts';

const AEROSOLS = 'gefsaero-20240309';

describe('an overlay no model covers here (SPEC §4 product selection, §8; issue 12 §3 item 10)', () => {
  it('the nearest product with the overlay, and a point well inside its area', () => {
    const near = nearestProductWith('pm2p5', ['demo', AEROSOLS], 50.087, 14.421)!;
    expect(near.product).toBe(AEROSOLS);
    expect(productCovers(PRODUCTS[AEROSOLS], near.lat, near.lon)).toBe(true);
    // Straight south of Prague, a quarter of the box inside its northern edge (40° N).
    expect(near.lon).toBeCloseTo(14.421, 6);
    expect(near.lat).toBeCloseTo(40 - (40 + 39.75) / 4, 6);
    // From the other side of the date line the box is reached the short way round.
    expect(nearestProductWith('pm2p5', [AEROSOLS], 0, -170)!.lon).toBeGreaterThan(0);
    expect(nearestProductWith('pm2p5', ['demo', 'gfs'], 50, 14)).toBeNull();
  });

  it('choosing it says why and offers that product; taking the offer moves the map there and shows the overlay', () => {
    const app = createAppState('?50.087,14.421,5', 'en-GB', PANELS);
    (app.data.served as Signal<ServedProduct[]>).value = [{ ident: 'demo', ref: '2026112612' }, { ident: AEROSOLS, ref: '2024030900' }];
    app.layer.setProduct('demo');
    expect(chooseOverlay(app, 'pm2p5')).toBe(false);
    expect(app.layer.overlay.value).toBe('wind');
    expect(overlayOffer.value).toMatchObject({ overlay: 'pm2p5', product: AEROSOLS });
    expect(acceptOverlayOffer(app)).toBe(true);
    expect(overlayOffer.value).toBeNull();
    expect([app.layer.product.value, app.layer.overlay.value]).toEqual([AEROSOLS, 'pm2p5']);
    expect(productCovers(PRODUCTS[AEROSOLS], app.map.lat.value, app.map.lon.value)).toBe(true);
    // Another choice that works clears an offer.
    chooseOverlay(app, 'pm2p5');
    expect(overlayOffer.value).toBeNull();
    app.dispose();
  });
});
