import { describe, expect, it } from 'vitest';
import { frameTransform } from '../../gl/transform.ts';
import { cellsInView } from './basemapDetail.ts';

// Extents like those of the built index (normalised Mercator, x unwrapped).
const CELLS = [
  { id: 'europe', x0: 0.47, x1: 0.8, y0: 0.24, y1: 0.52 },
  { id: 'pacific-east', x0: 0, x1: 0.26, y0: 0.23, y1: 0.5 },
  { id: 'chukotka', x0: 0.7, x1: 1.002, y0: 0.09, y1: 0.32 },
  { id: 'south', x0: 0.3, x1: 1, y0: 0.75, y1: 1 },
];

describe('10m cells of a view', () => {
  it('takes the cells whose extent the view meets', () => {
    const prague = frameTransform({ lon: 14.42, lat: 50.08, zoom: 6, width: 1280, height: 720 }, 1);
    expect(cellsInView(CELLS, prague).map((c) => c.id)).toEqual(['europe']);
  });

  it('across the antimeridian, in the neighbouring copy of the world', () => {
    const bering = frameTransform({ lon: -179.5, lat: 65, zoom: 5, width: 1280, height: 720 }, 1);
    expect(cellsInView(CELLS, bering).map((c) => c.id).sort()).toEqual(['chukotka', 'pacific-east']);
    // The same place one world east (the view's longitude is unwrapped).
    const again = frameTransform({ lon: 180.5, lat: 65, zoom: 5, width: 1280, height: 720 }, 1);
    expect(cellsInView(CELLS, again).map((c) => c.id).sort()).toEqual(['chukotka', 'pacific-east']);
  });
});
