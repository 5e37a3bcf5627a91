/**
 * Shapes given in longitude and latitude — lines with a colour per point, round points, and filled
 * areas given as simple rings whose union is filled once — drawn into the static layer over the
 * weather and the isolines, on the flat map and the globe. Any layer with vector data uses it
 * (the hurricanes overlay's tracks, forecast points and cones). Positions are uploaded in
 * normalised Mercator relative to an origin near the shapes (float32 stays exact enough); the
 * flat map draws them in each copy of the world the view shows.
 */

import earcut from 'earcut';
import type REGL from 'regl';
import { mercX, mercY } from '../../../common/map.ts';
import { createPointLayer, type PointLayer, type PointSet } from '../points/points.ts';
import type { LonLatShapes } from '../../api.ts';
import type { FrameTransform } from '../../gl/transform.ts';
import type { GlobeFrame } from '../../gl/globeTransform.ts';
import globeProjection from '../globe/projection.glsl?raw';
import flatProject from './flat.projection.glsl?raw';
import globeProject from './globe.projection.glsl?raw';
import lineVertex from './line.vertex.glsl?raw';
import fillVertex from './fill.vertex.glsl?raw';
import colorFragment from './color.fragment.glsl?raw';
import maskFragment from './mask.fragment.glsl?raw';
import maskBlitFragment from './maskBlit.fragment.glsl?raw';

/** The six corners (along, side) of a segment's two triangles. */
const SEGMENT_CORNERS = [0, -1, 1, -1, 0, 1, 0, 1, 1, -1, 1, 1];

/**
 * GPU-ready arrays of a set of shapes. Layouts: `from`, `to`, `center`, `pos`: vec2 normalised
 * Mercator minus `origin`; `corner`: vec2; `color`: vec4 straight alpha 0-1; six vertices per
 * segment or point, three per fill triangle.
 */
export interface ShapeBuffers {
  origin: [number, number];
  lines: { from: Float32Array; to: Float32Array; corner: Float32Array; color: Float32Array; count: number; widthPx: number }[];
  fills: { pos: Float32Array; count: number; color: [number, number, number, number] }[];
}

export function shapeBuffers(shapes: LonLatShapes): ShapeBuffers {
  const first = shapes.lines[0]?.points ?? shapes.points[0]?.points ?? shapes.fills[0]?.rings[0] ?? [0, 0];
  const origin: [number, number] = [mercX(first[0]), mercY(first[1])];
  const m = (lon: number, lat: number): [number, number] => [mercX(lon) - origin[0], mercY(lat) - origin[1]];
  const lines = shapes.lines.map((line) => {
    const n = Math.max(0, line.points.length / 2 - 1);
    const from = new Float32Array(n * 12);
    const to = new Float32Array(n * 12);
    const corner = new Float32Array(n * 12);
    const color = new Float32Array(n * 24);
    for (let i = 0; i < n; i++) {
      const a = m(line.points[2 * i], line.points[2 * i + 1]);
      const b = m(line.points[2 * i + 2], line.points[2 * i + 3]);
      for (let c = 0; c < 6; c++) {
        const v = i * 6 + c;
        from.set(a, 2 * v);
        to.set(b, 2 * v);
        corner.set(SEGMENT_CORNERS.slice(2 * c, 2 * c + 2), 2 * v);
        // Each segment in the colour of its start: the class the storm had on that leg.
        color.set(line.colors.slice(4 * i, 4 * i + 4), 4 * v);
      }
    }
    return { from, to, corner, color, count: n * 6, widthPx: line.widthPx };
  });
  const fills = shapes.fills.map((fill) => {
    // Simple rings, convex or not (a storm's cone circles, a warning's area): earcut's triangles.
    const pos: number[] = [];
    for (const ring of fill.rings) {
      const n = ring.length / 2 - (ring.length >= 4 && ring[0] === ring[ring.length - 2] && ring[1] === ring[ring.length - 1] ? 1 : 0);
      if (n < 3) continue;
      const merc = new Array<number>(2 * n);
      for (let i = 0; i < n; i++) [merc[2 * i], merc[2 * i + 1]] = m(ring[2 * i], ring[2 * i + 1]);
      for (const k of earcut(merc, undefined, 2)) pos.push(merc[2 * k], merc[2 * k + 1]);
    }
    return { pos: Float32Array.from(pos), count: pos.length / 2, color: fill.color };
  });
  return { origin, lines, fills };
}

/** The point sets of a shape set as the point layer's sprites: colours as bytes, diameters in CSS px. */
export function pointSet(sets: LonLatShapes['points']): PointSet {
  const n = sets.reduce((sum, set) => sum + set.points.length / 2, 0);
  const out: PointSet = { lon: new Float32Array(n), lat: new Float32Array(n), color: new Uint8Array(4 * n), size: new Float32Array(n) };
  let k = 0;
  for (const set of sets) {
    for (let i = 0; i < set.points.length / 2; i++, k++) {
      out.lon[k] = set.points[2 * i];
      out.lat[k] = set.points[2 * i + 1];
      for (let c = 0; c < 4; c++) out.color[4 * k + c] = Math.round(Math.min(1, Math.max(0, set.colors[4 * i + c])) * 255);
      out.size[k] = 2 * set.radiusPx;
    }
  }
  return out;
}

export interface VectorLayer {
  /** Replaces the shapes of one named set (null: none). */
  setShapes(name: string, shapes: LonLatShapes | null): void;
  /** Whether any set has shapes. */
  readonly empty: boolean;
  /** Draws into the framebuffer bound now (the static layer). */
  draw(t: FrameTransform, target: REGL.Framebuffer2D): void;
  drawGlobe(f: GlobeFrame, target: REGL.Framebuffer2D): void;
  destroy(): void;
}

interface Uploaded {
  origin: [number, number];
  lines: { from: REGL.Buffer; to: REGL.Buffer; corner: REGL.Buffer; color: REGL.Buffer; count: number; widthPx: number }[];
  fills: { pos: REGL.Buffer; count: number; color: [number, number, number, number] }[];
  /** The points of every point set, as the point layer's sprites. */
  points: PointLayer;
}

type View = { kind: 'flat'; t: FrameTransform; copy: number } | { kind: 'globe'; f: GlobeFrame };

export function createVectorLayer(regl: REGL.Regl): VectorLayer {
  const sets = new Map<string, Uploaded>();
  const fullscreen = regl.buffer([-1, -1, 3, -1, -1, 3]);
  let mask: REGL.Framebuffer2D | null = null;
  const blend = { enable: true, func: { src: 'one', dst: 'one minus src alpha' } } as const;

  // Uniforms of the two projections; `set` gives the origin.
  const flatUniforms = {
    u_center: (_: unknown, p: { view: View; set: Uploaded }) => {
      const v = p.view as Extract<View, { kind: 'flat' }>;
      return [v.t.center[0] - p.set.origin[0], v.t.center[1] - p.set.origin[1]];
    },
    u_scale: (_: unknown, p: { view: View }) => (p.view as Extract<View, { kind: 'flat' }>).t.scale,
    u_copy: (_: unknown, p: { view: View }) => (p.view as Extract<View, { kind: 'flat' }>).copy,
  };
  const globeUniforms = {
    u_center: (_: unknown, p: { view: View }) => (p.view as Extract<View, { kind: 'globe' }>).f.center,
    u_clipRadius: (_: unknown, p: { view: View }) => (p.view as Extract<View, { kind: 'globe' }>).f.clipRadius,
    u_origin: (_: unknown, p: { set: Uploaded }) => p.set.origin,
  };
  const canvasOf = (view: View) => (view.kind === 'flat' ? [view.t.width, view.t.height] : [view.f.width, view.f.height]);
  const ratioOf = (view: View) => (view.kind === 'flat' ? view.t.pixelRatio : view.f.pixelRatio);

  interface LineProps { view: View; set: Uploaded; line: Uploaded['lines'][number] }
  interface FillProps { view: View; set: Uploaded; fill: Uploaded['fills'][number] }

  const commands = (globe: boolean) => {
    const head = globe ? `precision highp float;\n${globeProjection}\n${globeProject}\n` : `precision highp float;\n${flatProject}\n`;
    const projection = globe ? globeUniforms : flatUniforms;
    return {
      line: regl<Record<string, unknown>, Record<string, unknown>, LineProps>({
        vert: head + lineVertex,
        frag: colorFragment,
        attributes: {
          a_from: (_: unknown, p: LineProps) => p.line.from,
          a_to: (_: unknown, p: LineProps) => p.line.to,
          a_corner: (_: unknown, p: LineProps) => p.line.corner,
          a_color: (_: unknown, p: LineProps) => p.line.color,
        },
        count: (_: unknown, p: LineProps) => p.line.count,
        uniforms: {
          ...projection,
          u_canvas: (_: unknown, p: LineProps) => canvasOf(p.view),
          u_width: (_: unknown, p: LineProps) => p.line.widthPx * ratioOf(p.view),
        },
        depth: { enable: false },
        blend,
      }),
      mask: regl<Record<string, unknown>, Record<string, unknown>, FillProps>({
        vert: head + fillVertex,
        frag: maskFragment,
        attributes: { a_pos: (_: unknown, p: FillProps) => p.fill.pos },
        count: (_: unknown, p: FillProps) => p.fill.count,
        uniforms: { ...projection },
        depth: { enable: false },
        blend: { enable: false },
      }),
    };
  };
  const flat = commands(false);
  const globe = commands(true);

  interface BlitProps { canvas: number[]; color: number[] }
  const blitMask = regl<Record<string, unknown>, Record<string, unknown>, BlitProps>({
    vert: 'precision highp float;\nattribute vec2 a_pos;\nvoid main() { gl_Position = vec4(a_pos, 0.0, 1.0); }',
    frag: maskBlitFragment,
    attributes: { a_pos: fullscreen },
    count: 3,
    uniforms: {
      u_mask: () => mask!,
      u_canvas: regl.prop<BlitProps, 'canvas'>('canvas'),
      u_color: regl.prop<BlitProps, 'color'>('color'),
    },
    depth: { enable: false },
    blend,
  });

  const pointLayer = (sets: LonLatShapes['points']): PointLayer => {
    const layer = createPointLayer(regl, 'disc');
    layer.setPoints(pointSet(sets));
    return layer;
  };

  const release = (set: Uploaded) => {
    for (const l of set.lines) [l.from, l.to, l.corner, l.color].forEach((b) => b.destroy());
    set.points.destroy();
    for (const f of set.fills) f.pos.destroy();
  };

  const drawAll = (views: View[], target: REGL.Framebuffer2D) => {
    const cmd = views[0]?.kind === 'globe' ? globe : flat;
    const [w, h] = canvasOf(views[0]);
    for (const set of sets.values()) {
      for (const fill of set.fills) {
        if (!fill.count) continue;
        mask ??= regl.framebuffer({ width: w, height: h, depthStencil: false });
        mask.resize(w, h);
        regl({ framebuffer: mask })(() => {
          regl.clear({ color: [0, 0, 0, 0] });
          for (const view of views) cmd.mask({ view, set, fill });
        });
        const [r, g, b, a] = fill.color;
        regl({ framebuffer: target })(() => blitMask({ canvas: [w, h], color: [r * a, g * a, b * a, a] }));
      }
      for (const line of set.lines) for (const view of views) if (line.count) cmd.line({ view, set, line });
    }
    // Points over every set's lines and fills.
    regl({ framebuffer: target })(() => {
      for (const set of sets.values()) for (const view of views) if (view.kind === 'globe') set.points.drawGlobe(view.f);
      if (views[0]?.kind === 'flat') for (const set of sets.values()) set.points.draw(views[0].t);
    });
  };

  return {
    setShapes(name, shapes) {
      const old = sets.get(name);
      if (old) release(old);
      sets.delete(name);
      if (!shapes) return;
      const b = shapeBuffers(shapes);
      sets.set(name, {
        origin: b.origin,
        lines: b.lines.map((l) => ({ from: regl.buffer(l.from), to: regl.buffer(l.to), corner: regl.buffer(l.corner), color: regl.buffer(l.color), count: l.count, widthPx: l.widthPx })),
        points: pointLayer(shapes.points),
        fills: b.fills.map((f) => ({ pos: regl.buffer(f.pos), count: f.count, color: f.color })),
      });
    },
    get empty() {
      return sets.size === 0;
    },
    draw(t, target) {
      drawAll(t.copies.map((copy) => ({ kind: 'flat', t, copy })), target);
    },
    drawGlobe(f, target) {
      drawAll([{ kind: 'globe', f }], target);
    },
    destroy() {
      for (const set of sets.values()) release(set);
      sets.clear();
      mask?.destroy();
      fullscreen.destroy();
    },
  };
}
