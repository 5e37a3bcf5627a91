/**
 * The offline basemap: land and sea fill, coastlines, country borders and a graticule, from the
 * Natural Earth meshes of common/basemap.ts, in the colours of the chosen style (gray, simple,
 * landmask: common/basemapStyles.ts). Drawn into the static layer, under and over the weather
 * raster (fill under, lines over), once per view change.
 */

import type REGL from 'regl';
import type { Basemap } from '../../../common/basemap.ts';
import { BASEMAP_PALETTES, type BasemapPalette, type OfflineBasemapStyle, type Rgba } from '../../../common/basemapStyles.ts';
import { mercX, mercY } from '../../../common/map.ts';
import type { FrameTransform } from '../../gl/transform.ts';
import vertex from './basemap.vertex.glsl?raw';
import fragment from './basemap.fragment.glsl?raw';
import graticuleVertex from './graticule.vertex.glsl?raw';

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
  yRange: [number, number];
  land: MeshBuffers;
  coast: MeshBuffers;
  borders: MeshBuffers;
}

export interface BasemapLayer {
  setData(basemap: Basemap): void;
  hasData(): boolean;
  /** The whole-world map's meshes, for another projection's draws (the globe); null until loaded. */
  meshes(): BasemapMeshes | null;
  /** Fill under the weather: land (and lakes), of the whole-world map or, where given, of the 10m cells of the view. */
  drawFill(transform: FrameTransform, cells?: readonly Basemap[] | null): void;
  drawLines(transform: FrameTransform, options: { graticule: boolean }, cells?: readonly Basemap[] | null): void;
  /** The style's colours (SPEC §2 base maps gray, simple, landmask). */
  setStyle(style: OfflineBasemapStyle): void;
  palette(): BasemapPalette;
  destroy(): void;
}

interface MeshSet {
  xRange: [number, number];
  yRange: [number, number];
  meshes: Record<'land' | 'coast' | 'borders' | 'lakes' | 'rivers' | 'admin1', MeshBuffers | null>;
}

export function createBasemapLayer(regl: REGL.Regl): BasemapLayer {
  let colors = BASEMAP_PALETTES.gray;
  let base: MeshSet | null = null;
  /** GPU buffers of the 10m cells, made on their first draw. */
  let cellSets = new WeakMap<Basemap, MeshSet>();
  const allCellSets = new Set<MeshSet>();
  let graticuleFor = 0;
  let graticuleBuffer: REGL.Buffer | null = null;
  let graticuleCount = 0;

  interface Props {
    vertices: REGL.Buffer;
    elements: REGL.Elements;
    color: Rgba;
    copy: number;
    xRange: [number, number];
    yRange: [number, number];
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
      u_xRange: regl.prop<Props, 'xRange'>('xRange'),
      u_yRange: regl.prop<Props, 'yRange'>('yRange'),
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

  const upload = (m: Basemap['land'], primitive: 'triangles' | 'lines'): MeshBuffers | null => (m.indices.length === 0 ? null : {
    vertices: regl.buffer({ data: m.vertices, type: 'uint16', usage: 'static' }),
    indices: regl.elements({ data: m.indices, type: 'uint16', primitive, usage: 'static' }),
  });
  const uploadSet = (map: Basemap): MeshSet => ({
    xRange: [map.x0, map.x1],
    yRange: [map.y0, map.y1],
    meshes: {
      land: upload(map.land, 'triangles'),
      lakes: upload(map.lakes, 'triangles'),
      coast: upload(map.coast, 'lines'),
      borders: upload(map.borders, 'lines'),
      rivers: upload(map.rivers, 'lines'),
      admin1: upload(map.admin1, 'lines'),
    },
  });
  const freeSet = (set: MeshSet | null) => {
    for (const m of Object.values(set?.meshes ?? {})) {
      m?.vertices.destroy();
      m?.indices.destroy();
    }
  };
  const setsFor = (cells: readonly Basemap[] | null | undefined): MeshSet[] => {
    if (!cells) return base ? [base] : [];
    return cells.map((cell) => {
      let set = cellSets.get(cell);
      if (!set) {
        set = uploadSet(cell);
        cellSets.set(cell, set);
        allCellSets.add(set);
      }
      return set;
    });
  };
  const draw = (command: typeof drawTriangles, sets: MeshSet[], part: keyof MeshSet['meshes'], color: Rgba, t: FrameTransform) => {
    if (color[3] === 0) return;
    // A polygon crossing the antimeridian lies in world copy k and spills into k + 1: draw one copy more to the west.
    const copies = [t.copies[0] - 1, ...t.copies];
    const props: Props[] = [];
    for (const set of sets) {
      const m = set.meshes[part];
      if (m) for (const copy of copies) props.push({ vertices: m.vertices, elements: m.indices, color, copy, xRange: set.xRange, yRange: set.yRange, t });
    }
    if (props.length) command(props);
  };

  return {
    setData(basemap) {
      freeSet(base);
      base = uploadSet(basemap);
    },
    hasData: () => base !== null,
    meshes: () => {
      const m = base?.meshes;
      return base && m?.land && m.coast && m.borders ? { xRange: base.xRange, yRange: base.yRange, land: m.land, coast: m.coast, borders: m.borders } : null;
    },
    setStyle(style) {
      colors = BASEMAP_PALETTES[style];
    },
    palette: () => colors,
    drawFill(t, cells) {
      const sets = setsFor(cells);
      draw(drawTriangles, sets, 'land', colors.land, t);
      draw(drawTriangles, sets, 'lakes', colors.lakes, t);
    },
    drawLines(t, { graticule }, cells) {
      if (graticule) {
        const step = graticuleStep(t.view.zoom);
        if (step !== graticuleFor || !graticuleBuffer) {
          const lines = graticuleLines(step);
          graticuleBuffer?.destroy();
          graticuleBuffer = regl.buffer(lines);
          graticuleCount = lines.length / 2;
          graticuleFor = step;
        }
        drawGraticule(t.copies.map((copy) => ({ copy, t, color: colors.graticule })));
      }
      const sets = setsFor(cells);
      draw(drawLineMesh, sets, 'rivers', colors.rivers, t);
      draw(drawLineMesh, sets, 'admin1', colors.admin1, t);
      draw(drawLineMesh, sets, 'borders', colors.borders, t);
      draw(drawLineMesh, sets, 'coast', colors.coast, t);
    },
    destroy() {
      freeSet(base);
      for (const set of allCellSets) freeSet(set);
      allCellSets.clear();
      cellSets = new WeakMap();
      graticuleBuffer?.destroy();
      base = null;
      graticuleBuffer = null;
    },
  };
}
