/**
 * The offline basemap: land and sea fill, coastlines, country borders and a graticule, from the
 * Natural Earth meshes of common/basemap.ts. Drawn into the static layer, under and over the
 * weather raster (fill under, lines over), once per view change.
 */

import type REGL from 'regl';
import type { Basemap } from '../../../common/basemap.ts';
import { mercX, mercY } from '../../../common/map.ts';
import type { FrameTransform } from '../../gl/transform.ts';
import vertex from './basemap.vertex.glsl?raw';
import fragment from './basemap.fragment.glsl?raw';
import graticuleVertex from './graticule.vertex.glsl?raw';

type Rgba = [number, number, number, number];

const BASEMAP_COLORS = {
  /** Sea and land as seen where the weather layer is transparent. */
  sea: [0.055, 0.09, 0.15, 1] as Rgba,
  land: [0.17, 0.19, 0.21, 1] as Rgba,
  coast: [1, 1, 1, 0.55] as Rgba,
  borders: [1, 1, 1, 0.3] as Rgba,
  graticule: [1, 1, 1, 0.1] as Rgba,
};

/** Graticule spacing in degrees by map zoom: a handful of lines on screen at every zoom. */
export function graticuleStep(zoom: number): number {
  if (zoom < 4) return 30;
  if (zoom < 6) return 10;
  if (zoom < 8) return 5;
  if (zoom < 10) return 1;
  return 0.5;
}

/** Lines of a graticule in normalised Mercator: meridians and parallels are straight there. */
function graticuleLines(step: number): Float32Array {
  const out: number[] = [];
  const top = mercY(85.0511);
  const bottom = mercY(-85.0511);
  for (let lon = -180; lon < 180; lon += step) out.push(mercX(lon), top, mercX(lon), bottom);
  for (let lat = -80; lat <= 80 + 1e-9; lat += step) {
    const y = mercY(lat);
    out.push(0, y, 1, y);
  }
  return new Float32Array(out);
}

interface MeshBuffers {
  vertices: REGL.Buffer;
  indices: REGL.Elements;
}

/** The uploaded meshes, for other projections' draws (the globe, workers/layers/globe). */
export interface BasemapMeshes {
  xRange: [number, number];
  land: MeshBuffers;
  coast: MeshBuffers;
  borders: MeshBuffers;
}

export interface BasemapLayer {
  setData(basemap: Basemap): void;
  hasData(): boolean;
  meshes(): BasemapMeshes | null;
  drawFill(transform: FrameTransform): void;
  drawLines(transform: FrameTransform, options: { graticule: boolean }): void;
  destroy(): void;
}

export function createBasemapLayer(regl: REGL.Regl): BasemapLayer {
  let xRange: [number, number] = [0, 1];
  let land: MeshBuffers | null = null;
  let coast: MeshBuffers | null = null;
  let borders: MeshBuffers | null = null;
  let graticuleFor = 0;
  let graticuleBuffer: REGL.Buffer | null = null;
  let graticuleCount = 0;

  interface Props {
    vertices: REGL.Buffer;
    elements: REGL.Elements;
    color: Rgba;
    copy: number;
    t: FrameTransform;
  }

  const mesh = (primitive: REGL.PrimitiveType) => regl<Record<string, unknown>, Record<string, unknown>, Props>({
    vert: vertex,
    frag: fragment,
    primitive,
    attributes: {
      a_pos: { buffer: regl.prop<Props, 'vertices'>('vertices'), normalized: true, type: 'uint16', size: 2 },
    },
    elements: regl.prop<Props, 'elements'>('elements'),
    uniforms: {
      u_xRange: () => xRange,
      u_center: (_: unknown, p: Props) => p.t.center,
      u_scale: (_: unknown, p: Props) => p.t.scale,
      u_copy: regl.prop<Props, 'copy'>('copy'),
      u_color: regl.prop<Props, 'color'>('color'),
    },
    depth: { enable: false },
    blend: { enable: true, func: { src: 'one', dst: 'one minus src alpha' } },
  });

  const drawTriangles = mesh('triangles');
  const drawLineMesh = mesh('lines');

  interface GratProps { copy: number; t: FrameTransform; color: Rgba }
  const drawGraticule = regl<Record<string, unknown>, Record<string, unknown>, GratProps>({
    vert: graticuleVertex,
    frag: fragment,
    primitive: 'lines',
    attributes: { a_pos: () => graticuleBuffer! },
    count: () => graticuleCount,
    uniforms: {
      u_center: (_: unknown, p: GratProps) => p.t.center,
      u_scale: (_: unknown, p: GratProps) => p.t.scale,
      u_copy: regl.prop<GratProps, 'copy'>('copy'),
      u_color: regl.prop<GratProps, 'color'>('color'),
    },
    depth: { enable: false },
    blend: { enable: true, func: { src: 'one', dst: 'one minus src alpha' } },
  });

  const upload = (m: Basemap['land'], primitive: 'triangles' | 'lines'): MeshBuffers => ({
    vertices: regl.buffer({ data: m.vertices, type: 'uint16', usage: 'static' }),
    indices: regl.elements({ data: m.indices, type: 'uint16', primitive, usage: 'static' }),
  });
  const free = (m: MeshBuffers | null) => {
    m?.vertices.destroy();
    m?.indices.destroy();
  };

  return {
    setData(basemap) {
      free(land);
      free(coast);
      free(borders);
      xRange = [basemap.x0, basemap.x1];
      land = upload(basemap.land, 'triangles');
      coast = upload(basemap.coast, 'lines');
      borders = upload(basemap.borders, 'lines');
    },
    hasData: () => land !== null,
    meshes: () => (land && coast && borders ? { xRange, land, coast, borders } : null),
    drawFill(t) {
      if (!land) return;
      // A polygon crossing the antimeridian lies in world copy k and spills into k + 1: draw one copy more to the west.
      const copies = [t.copies[0] - 1, ...t.copies];
      drawTriangles(copies.map((copy) => ({ vertices: land!.vertices, elements: land!.indices, color: BASEMAP_COLORS.land, copy, t })));
    },
    drawLines(t, { graticule }) {
      const copies = [t.copies[0] - 1, ...t.copies];
      if (graticule) {
        const step = graticuleStep(t.view.zoom);
        if (step !== graticuleFor || !graticuleBuffer) {
          const lines = graticuleLines(step);
          graticuleBuffer?.destroy();
          graticuleBuffer = regl.buffer(lines);
          graticuleCount = lines.length / 2;
          graticuleFor = step;
        }
        drawGraticule(t.copies.map((copy) => ({ copy, t, color: BASEMAP_COLORS.graticule })));
      }
      if (borders) drawLineMesh(copies.map((copy) => ({ vertices: borders!.vertices, elements: borders!.indices, color: BASEMAP_COLORS.borders, copy, t })));
      if (coast) drawLineMesh(copies.map((copy) => ({ vertices: coast!.vertices, elements: coast!.indices, color: BASEMAP_COLORS.coast, copy, t })));
    },
    destroy() {
      free(land);
      free(coast);
      free(borders);
      graticuleBuffer?.destroy();
      land = coast = borders = null;
      graticuleBuffer = null;
    },
  };
}
