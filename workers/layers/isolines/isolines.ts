/**
 * The isolines' lines (isolineBuilder.ts makes them): each segment a quad of the line's width,
 * drawn into the static layer over the colour raster and under the particles, crisp at any pixel
 * ratio (the width is in device pixels). Heavier lines (every 20 hPa, 0 °C ...) are wider and
 * brighter. Positions are uploaded relative to an origin near the lines, and the view centre is
 * taken relative to it in double precision on the CPU: no float32 wobble when zoomed in.
 */

import type REGL from 'regl';
import type { FrameTransform } from '../../gl/transform.ts';
import type { GlobeFrame } from '../../gl/globeTransform.ts';
import globeProjection from '../globe/projection.glsl?raw';
import globeVertex from './isolines.globe.vertex.glsl?raw';
import type { IsolineSet } from './isolineBuilder.ts';
import vertex from './isolines.vertex.glsl?raw';
import fragment from './isolines.fragment.glsl?raw';

type Rgba = [number, number, number, number];

/** Line widths in CSS px and colours (straight alpha) of ordinary and heavy lines. */
export const ISOLINE_STYLE = {
  normal: { widthPx: 1.25, color: [1, 1, 1, 0.75] as Rgba },
  heavy: { widthPx: 2.25, color: [1, 1, 1, 0.95] as Rgba },
};

/** The six corners (along, side) of a segment's two triangles. */
const CORNERS = [0, -1, 1, -1, 0, 1, 0, 1, 1, -1, 1, 1];

export interface SegmentQuads {
  from: Float32Array;
  to: Float32Array;
  corner: Float32Array;
  /** Vertices: 6 per segment. */
  count: number;
}

/** The quads of the lines of `set` whose heaviness is `heavy`, relative to `origin`. */
export function segmentQuads(set: IsolineSet, heavy: boolean, origin: [number, number]): SegmentQuads {
  let segments = 0;
  for (const line of set.lines) if (line.heavy === heavy) segments += Math.max(0, line.count - 1);
  const from = new Float32Array(segments * 12);
  const to = new Float32Array(segments * 12);
  const corner = new Float32Array(segments * 12);
  const p = set.points;
  let v = 0;
  for (const line of set.lines) {
    if (line.heavy !== heavy) continue;
    for (let i = 1; i < line.count; i++) {
      const a = line.start + i - 1;
      const ax = p[2 * a] - origin[0];
      const ay = p[2 * a + 1] - origin[1];
      const bx = p[2 * a + 2] - origin[0];
      const by = p[2 * a + 3] - origin[1];
      for (let c = 0; c < 6; c++, v++) {
        from[2 * v] = ax;
        from[2 * v + 1] = ay;
        to[2 * v] = bx;
        to[2 * v + 1] = by;
        corner[2 * v] = CORNERS[2 * c];
        corner[2 * v + 1] = CORNERS[2 * c + 1];
      }
    }
  }
  return { from, to, corner, count: v };
}

export interface IsolineLayer {
  /** Replaces the lines drawn (null: none). */
  setLines(set: IsolineSet | null): void;
  draw(t: FrameTransform): void;
  /** The same lines on the globe (SPEC §2 window "globe"). */
  drawGlobe(f: GlobeFrame): void;
  destroy(): void;
}

interface Group {
  from: REGL.Buffer;
  to: REGL.Buffer;
  corner: REGL.Buffer;
  count: number;
  widthPx: number;
  color: Rgba;
}

export function createIsolineLayer(regl: REGL.Regl): IsolineLayer {
  let groups: Group[] = [];
  let origin: [number, number] = [0, 0];
  let wrap = false;

  interface Props { group: Group; t: FrameTransform; copy: number }
  const drawGroup = regl<Record<string, unknown>, Record<string, unknown>, Props>({
    vert: vertex,
    frag: fragment,
    attributes: {
      a_from: (_: unknown, p: Props) => p.group.from,
      a_to: (_: unknown, p: Props) => p.group.to,
      a_corner: (_: unknown, p: Props) => p.group.corner,
    },
    count: (_: unknown, p: Props) => p.group.count,
    uniforms: {
      u_center: (_: unknown, p: Props) => [p.t.center[0] - origin[0], p.t.center[1] - origin[1]],
      u_scale: (_: unknown, p: Props) => p.t.scale,
      u_canvas: (_: unknown, p: Props) => [p.t.width, p.t.height],
      u_copy: (_: unknown, p: Props) => p.copy,
      u_width: (_: unknown, p: Props) => p.group.widthPx * p.t.pixelRatio,
      u_color: (_: unknown, p: Props) => {
        const [r, g, b, a] = p.group.color;
        return [r * a, g * a, b * a, a];
      },
    },
    depth: { enable: false },
    blend: { enable: true, func: { src: 'one', dst: 'one minus src alpha' } },
  });

  interface GlobeProps { group: Group; f: GlobeFrame }
  const drawGlobeGroup = regl<Record<string, unknown>, Record<string, unknown>, GlobeProps>({
    vert: `precision highp float;\n${globeProjection}\n${globeVertex}`,
    frag: fragment,
    attributes: {
      a_from: (_: unknown, p: GlobeProps) => p.group.from,
      a_to: (_: unknown, p: GlobeProps) => p.group.to,
      a_corner: (_: unknown, p: GlobeProps) => p.group.corner,
    },
    count: (_: unknown, p: GlobeProps) => p.group.count,
    uniforms: {
      u_center: (_: unknown, p: GlobeProps) => p.f.center,
      u_clipRadius: (_: unknown, p: GlobeProps) => p.f.clipRadius,
      u_origin: () => origin,
      u_canvas: (_: unknown, p: GlobeProps) => [p.f.width, p.f.height],
      u_width: (_: unknown, p: GlobeProps) => p.group.widthPx * p.f.pixelRatio,
      u_color: (_: unknown, p: GlobeProps) => {
        const [r, g, b, a] = p.group.color;
        return [r * a, g * a, b * a, a];
      },
    },
    depth: { enable: false },
    blend: { enable: true, func: { src: 'one', dst: 'one minus src alpha' } },
  });

  const release = () => {
    for (const g of groups) {
      g.from.destroy();
      g.to.destroy();
      g.corner.destroy();
    }
    groups = [];
  };

  return {
    setLines(set) {
      release();
      if (!set || !set.lines.length) return;
      origin = [set.points[0], set.points[1]];
      wrap = set.wrap;
      for (const heavy of [false, true]) {
        const quads = segmentQuads(set, heavy, origin);
        if (!quads.count) continue;
        const style = heavy ? ISOLINE_STYLE.heavy : ISOLINE_STYLE.normal;
        groups.push({
          from: regl.buffer(quads.from), to: regl.buffer(quads.to), corner: regl.buffer(quads.corner),
          count: quads.count, widthPx: style.widthPx, color: style.color,
        });
      }
    },
    draw(t) {
      // Lines of a grid all the way round are in one world: drawn in each copy the view shows;
      // otherwise they are already in the view's unwrapped longitudes.
      const copies = wrap ? t.copies : [0];
      for (const group of groups) for (const copy of copies) drawGroup({ group, t, copy });
    },
    drawGlobe(f) {
      for (const group of groups) drawGlobeGroup({ group, f });
    },
    destroy: release,
  };
}
