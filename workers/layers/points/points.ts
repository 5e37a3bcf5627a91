/**
 * Marks at places on the map (lightning flashes, fire detections, any lon/lat points): one GL point
 * sprite each, its colour and size per point, its shape per layer, drawn into the static layer over
 * the colour raster and the isolines, on the flat map (in each world copy the view shows) and on the
 * globe. Sizes are CSS px, multiplied by the pixel ratio.
 */

import type REGL from 'regl';
import { mercX, mercY } from '../../../common/map.ts';
import type { FrameTransform } from '../../gl/transform.ts';
import type { GlobeFrame } from '../../gl/globeTransform.ts';
import globeProjection from '../globe/projection.glsl?raw';
import vertex from './points.vertex.glsl?raw';
import globeVertex from './points.globe.vertex.glsl?raw';
import fragment from './points.fragment.glsl?raw';

export type PointShape = 'disc' | 'plus';

/**
 * Points to draw. Layout: lon/lat degrees per point; color 4 bytes per point (r, g, b, straight
 * alpha); size CSS px per point.
 */
export interface PointSet {
  lon: Float32Array;
  lat: Float32Array;
  color: Uint8Array;
  size: Float32Array;
}

/** Normalised Mercator (x 0..1 east from -180°, y 0..1 south from the north edge) of each point, interleaved. */
export function mercatorOf(lon: Float32Array, lat: Float32Array): Float32Array {
  const out = new Float32Array(lon.length * 2);
  for (let i = 0; i < lon.length; i++) {
    out[2 * i] = mercX(lon[i]);
    out[2 * i + 1] = mercY(lat[i]);
  }
  return out;
}

export interface PointLayer {
  setPoints(points: PointSet | null): void;
  readonly count: number;
  draw(t: FrameTransform): void;
  drawGlobe(f: GlobeFrame): void;
  destroy(): void;
}

export function createPointLayer(regl: REGL.Regl, shape: PointShape): PointLayer {
  let buffers: { merc: REGL.Buffer; lonlat: REGL.Buffer; color: REGL.Buffer; size: REGL.Buffer } | null = null;
  let count = 0;
  const shapeValue = shape === 'plus' ? 1 : 0;
  const attributes = (lonlatName: 'a_merc' | 'a_lonlat') => ({
    [lonlatName]: () => (lonlatName === 'a_merc' ? buffers!.merc : buffers!.lonlat),
    a_color: () => ({ buffer: buffers!.color, normalized: true, size: 4 }),
    a_size: () => buffers!.size,
  });
  const blend = { enable: true, func: { src: 'one', dst: 'one minus src alpha' } } as const;

  interface Props { t: FrameTransform; copy: number }
  const drawFlat = regl<Record<string, unknown>, Record<string, unknown>, Props>({
    vert: vertex,
    frag: fragment,
    primitive: 'points',
    attributes: attributes('a_merc'),
    count: () => count,
    uniforms: {
      u_center: (_: unknown, p: Props) => p.t.center,
      u_scale: (_: unknown, p: Props) => p.t.scale,
      u_copy: (_: unknown, p: Props) => p.copy,
      u_pixelRatio: (_: unknown, p: Props) => p.t.pixelRatio,
      u_shape: shapeValue,
    },
    depth: { enable: false },
    blend,
  });

  interface GlobeProps { f: GlobeFrame }
  const drawOnGlobe = regl<Record<string, unknown>, Record<string, unknown>, GlobeProps>({
    vert: `precision highp float;\n${globeProjection}\n${globeVertex}`,
    frag: fragment,
    primitive: 'points',
    attributes: attributes('a_lonlat'),
    count: () => count,
    uniforms: {
      u_center: (_: unknown, p: GlobeProps) => p.f.center,
      u_clipRadius: (_: unknown, p: GlobeProps) => p.f.clipRadius,
      u_pixelRatio: (_: unknown, p: GlobeProps) => p.f.pixelRatio,
      u_shape: shapeValue,
    },
    depth: { enable: false },
    blend,
  });

  const release = () => {
    if (buffers) for (const b of Object.values(buffers)) b.destroy();
    buffers = null;
    count = 0;
  };

  return {
    setPoints(points) {
      release();
      if (!points || points.lon.length === 0) return;
      const lonlat = new Float32Array(points.lon.length * 2);
      for (let i = 0; i < points.lon.length; i++) {
        lonlat[2 * i] = points.lon[i];
        lonlat[2 * i + 1] = points.lat[i];
      }
      buffers = {
        merc: regl.buffer(mercatorOf(points.lon, points.lat)),
        lonlat: regl.buffer(lonlat),
        color: regl.buffer({ data: points.color, type: 'uint8' }),
        size: regl.buffer(points.size),
      };
      count = points.lon.length;
    },
    get count() {
      return count;
    },
    draw(t) {
      if (count === 0) return;
      for (const copy of t.copies) drawFlat({ t, copy });
    },
    drawGlobe(f) {
      if (count === 0) return;
      drawOnGlobe({ f });
    },
    destroy: release,
  };
}
