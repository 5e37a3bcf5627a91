/**
 * The colour raster of the active overlay: one quad per data tile, coloured per pixel by
 * raster.fragment.glsl. Drawn into the static layer only when the view, the time or the data
 * change (software GL is fill-bound), then composited every frame.
 */

import type REGL from 'regl';
import { buildColorRamp, scaleDomain, type ColorScale } from '../../../common/catalogue/colors.ts';
import vertex from './raster.vertex.glsl?raw';
import fragment from './raster.fragment.glsl?raw';

export type Vec2 = [number, number];
export type Vec4 = [number, number, number, number];

/** One tile's draw: where its quad lies, which data tile feeds it and the two steps to blend. */
export interface RasterTileDraw {
  /** Clip-space rectangle: x0, y0 (top-left), x1, y1 (bottom-right). */
  rect: Vec4;
  /** Unwrapped west longitude and span of the quad. */
  quadLon: Vec2;
  /** Mercator y of the quad's top and bottom. */
  quadY: Vec2;
  /** Latitude of the quad's north and south edges (the globe keeps the pixels within them). */
  quadLat: Vec2;
  /** Data tile west (same frame as quadLon), north, lon span, lat span. A parent tile may feed a child's quad. */
  tile: Vec4;
  grid: Vec2;
  a: REGL.Texture2D;
  b: REGL.Texture2D;
  qa: Vec4;
  qb: Vec4;
  t: number;
}

/** The globe's uniforms (workers/gl/globeTransform.ts): centre lon, sin and cos of the centre lat, radius; half the canvas. */
export interface RasterGlobe {
  view: Vec4;
  canvasHalf: Vec2;
}

export interface RasterLayer {
  /** `nearest`: a class field (METRICS' `classes`), drawn from the nearest node and step, never blended. */
  setScale(scale: ColorScale, vector: boolean, maxTextureSize: number, nearest?: boolean): void;
  /** `globe`: drawn on the globe (each quad is its tile's screen rectangle there). */
  draw(tiles: RasterTileDraw[], opacity: number, globe?: RasterGlobe | null): void;
  destroy(): void;
}

const QUAD = [0, 0, 1, 0, 0, 1, 0, 1, 1, 0, 1, 1];

/** Texture of a tile's packed 16-bit quantized nodes (RGBA8, read with NEAREST, never filtered). */
export function createTileTexture(regl: REGL.Regl, texels: Uint8Array, width: number, height: number): REGL.Texture2D {
  return regl.texture({ data: texels, width, height, format: 'rgba', type: 'uint8', min: 'nearest', mag: 'nearest', wrapS: 'clamp', wrapT: 'clamp' });
}

export function createRasterLayer(regl: REGL.Regl): RasterLayer {
  const quad = regl.buffer(QUAD);
  let ramp: REGL.Texture2D | null = null;
  let rampSteps = 256;
  let domain: Vec2 = [0, 1];
  let vector = false;
  let nearest = false;

  interface Props extends RasterTileDraw { opacity: number; globe: RasterGlobe | null }
  const p = <K extends keyof Props>(k: K) => regl.prop<Props, K>(k);
  const drawTile = regl<Record<string, unknown>, Record<string, unknown>, Props>({
    vert: vertex,
    frag: fragment,
    attributes: { a_corner: { buffer: quad, size: 2 } },
    count: 6,
    uniforms: {
      u_rect: p('rect'),
      u_quadLon: p('quadLon'),
      u_quadY: p('quadY'),
      u_tile: p('tile'),
      u_grid: p('grid'),
      u_a: p('a'),
      u_b: p('b'),
      u_qa: p('qa'),
      u_qb: p('qb'),
      u_t: p('t'),
      u_opacity: p('opacity'),
      u_quadLat: p('quadLat'),
      u_globe: (_: unknown, { globe }: Props) => (globe ? 1 : 0),
      u_globeView: (_: unknown, { globe }: Props) => globe?.view ?? [0, 0, 1, 1],
      u_canvasHalf: (_: unknown, { globe }: Props) => globe?.canvasHalf ?? [0, 0],
      u_vector: () => (vector ? 1 : 0),
      u_nearest: () => (nearest ? 1 : 0),
      u_ramp: () => ramp!,
      u_rampSteps: () => rampSteps,
      u_domain: () => domain,
    },
    depth: { enable: false },
    blend: { enable: true, func: { src: 'one', dst: 'one minus src alpha' } },
  });

  return {
    setScale(scale, isVector, maxTextureSize, isNearest = false) {
      rampSteps = Math.min(scale.steps, maxTextureSize);
      const data = buildColorRamp(scale, Math.max(4, rampSteps));
      const filter = scale.qualitative ? 'nearest' : 'linear';
      if (ramp) ramp({ data, width: rampSteps, height: 1, min: filter, mag: filter, wrapS: 'clamp', wrapT: 'clamp' });
      else ramp = regl.texture({ data, width: rampSteps, height: 1, min: filter, mag: filter, wrapS: 'clamp', wrapT: 'clamp' });
      domain = scaleDomain(scale);
      vector = isVector;
      nearest = isNearest;
    },
    draw(tiles, opacity, globe = null) {
      if (!ramp || tiles.length === 0) return;
      drawTile(tiles.map((t) => ({ ...t, opacity, globe })));
    },
    destroy() {
      quad.destroy();
      ramp?.destroy();
      ramp = null;
    },
  };
}
