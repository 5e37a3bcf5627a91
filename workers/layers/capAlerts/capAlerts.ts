/**
 * The capAlerts layer (SPEC §3 renderer kind "cap alerts"): the active warnings' areas filled
 * translucent and outlined in their severity's colour (common/capAlerts.ts), over the colour raster
 * in the static layer, on the flat map (every world copy the view shows) and on the globe. The
 * outlines are the isolines' line quads (isolines.ts), in device pixels.
 */

import type REGL from 'regl';
import { CAP_SEVERITIES, CAP_SEVERITY_COLOURS, pointInRing, severityRank, type CapSeverity } from '../../../common/capAlerts.ts';
import type { FrameTransform } from '../../gl/transform.ts';
import type { GlobeFrame } from '../../gl/globeTransform.ts';
import globeProjection from '../globe/projection.glsl?raw';
import lineGlobeVertex from '../isolines/isolines.globe.vertex.glsl?raw';
import lineVertex from '../isolines/isolines.vertex.glsl?raw';
import lineFragment from '../isolines/isolines.fragment.glsl?raw';
import { segmentQuads } from '../isolines/isolines.ts';
import fillFragment from './fill.fragment.glsl?raw';
import fillGlobeVertex from './fill.globe.vertex.glsl?raw';
import fillVertex from './fill.vertex.glsl?raw';
import { polygonMesh } from './polygonMesh.ts';

/** Fill opacity: the weather layer stays readable under the areas. */
export const CAP_FILL_ALPHA = 0.35;
/** Outline width, CSS px. */
export const CAP_OUTLINE_PX = 1.5;

/** One area of the published GeoJSON (server/obs/capAlerts/publication.ts), as the worker keeps it. */
export interface CapAlertArea {
  id: string;
  severity: CapSeverity;
  event: string;
  areaDesc: string;
  /** Outer rings, flat [lon, lat, ...]. */
  rings: number[][];
}

/** The areas of a capAlerts.geojson document; features that are not MultiPolygons of the publication's shape are skipped. */
export function readAlertAreas(geojson: unknown): CapAlertArea[] {
  const features = (geojson as { features?: unknown[] } | null)?.features;
  if (!Array.isArray(features)) throw new Error('capAlerts.geojson: not a FeatureCollection');
  const areas: CapAlertArea[] = [];
  for (const f of features as { geometry?: { type?: string; coordinates?: number[][][][] }; properties?: Record<string, unknown> }[]) {
    const p = f.properties ?? {};
    const severity = p.severity as CapSeverity;
    if (f.geometry?.type !== 'MultiPolygon' || !CAP_SEVERITIES.includes(severity)) continue;
    const rings = (f.geometry.coordinates ?? []).map((polygon) => polygon[0].flat());
    areas.push({ id: String(p.id), severity, event: String(p.event ?? ''), areaDesc: String(p.areaDesc ?? ''), rings });
  }
  return areas;
}

/** The areas under a place, most severe first (the picker; lon in -180..180 after wrapping). */
export function alertAreasAt(areas: readonly CapAlertArea[], lon: number, lat: number): CapAlertArea[] {
  const x = ((((lon + 180) % 360) + 360) % 360) - 180;
  return areas.filter((a) => a.rings.some((ring) => pointInRing(ring, x, lat)))
    .sort((a, b) => severityRank(a.severity) - severityRank(b.severity));
}

export interface CapAlertsLayer {
  setAreas(areas: readonly CapAlertArea[]): void;
  draw(t: FrameTransform): void;
  drawGlobe(f: GlobeFrame): void;
  destroy(): void;
}

interface Outline { from: REGL.Buffer; to: REGL.Buffer; corner: REGL.Buffer; count: number; colour: [number, number, number, number] }

export function createCapAlertsLayer(regl: REGL.Regl): CapAlertsLayer {
  let origin: [number, number] = [0, 0];
  let fill: { position: REGL.Buffer; colour: REGL.Buffer; count: number } | null = null;
  let outlines: Outline[] = [];

  const blend = { enable: true, func: { src: 'one', dst: 'one minus src alpha' } } as const;
  interface FillProps { t: FrameTransform; copy: number }
  const drawFill = regl<Record<string, unknown>, Record<string, unknown>, FillProps>({
    vert: fillVertex, frag: fillFragment,
    attributes: { a_position: () => fill!.position, a_colour: () => fill!.colour },
    count: () => fill!.count,
    uniforms: {
      u_center: (_: unknown, p: FillProps) => [p.t.center[0] - origin[0], p.t.center[1] - origin[1]],
      u_scale: (_: unknown, p: FillProps) => p.t.scale,
      u_copy: (_: unknown, p: FillProps) => p.copy,
    },
    depth: { enable: false }, blend,
  });
  const drawFillGlobe = regl<Record<string, unknown>, Record<string, unknown>, { f: GlobeFrame }>({
    vert: `precision highp float;\n${globeProjection}\n${fillGlobeVertex}`, frag: fillFragment,
    attributes: { a_position: () => fill!.position, a_colour: () => fill!.colour },
    count: () => fill!.count,
    uniforms: {
      u_center: (_: unknown, p: { f: GlobeFrame }) => p.f.center,
      u_clipRadius: (_: unknown, p: { f: GlobeFrame }) => p.f.clipRadius,
      u_origin: () => origin,
    },
    depth: { enable: false }, blend,
  });
  interface LineProps { o: Outline; t: FrameTransform; copy: number }
  const drawLine = regl<Record<string, unknown>, Record<string, unknown>, LineProps>({
    vert: lineVertex, frag: lineFragment,
    attributes: { a_from: (_: unknown, p: LineProps) => p.o.from, a_to: (_: unknown, p: LineProps) => p.o.to, a_corner: (_: unknown, p: LineProps) => p.o.corner },
    count: (_: unknown, p: LineProps) => p.o.count,
    uniforms: {
      u_center: (_: unknown, p: LineProps) => [p.t.center[0] - origin[0], p.t.center[1] - origin[1]],
      u_scale: (_: unknown, p: LineProps) => p.t.scale,
      u_canvas: (_: unknown, p: LineProps) => [p.t.width, p.t.height],
      u_copy: (_: unknown, p: LineProps) => p.copy,
      u_width: (_: unknown, p: LineProps) => CAP_OUTLINE_PX * p.t.pixelRatio,
      u_color: (_: unknown, p: LineProps) => p.o.colour,
    },
    depth: { enable: false }, blend,
  });
  interface LineGlobeProps { o: Outline; f: GlobeFrame }
  const drawLineGlobe = regl<Record<string, unknown>, Record<string, unknown>, LineGlobeProps>({
    vert: `precision highp float;\n${globeProjection}\n${lineGlobeVertex}`, frag: lineFragment,
    attributes: { a_from: (_: unknown, p: LineGlobeProps) => p.o.from, a_to: (_: unknown, p: LineGlobeProps) => p.o.to, a_corner: (_: unknown, p: LineGlobeProps) => p.o.corner },
    count: (_: unknown, p: LineGlobeProps) => p.o.count,
    uniforms: {
      u_center: (_: unknown, p: LineGlobeProps) => p.f.center,
      u_clipRadius: (_: unknown, p: LineGlobeProps) => p.f.clipRadius,
      u_origin: () => origin,
      u_canvas: (_: unknown, p: LineGlobeProps) => [p.f.width, p.f.height],
      u_width: (_: unknown, p: LineGlobeProps) => CAP_OUTLINE_PX * p.f.pixelRatio,
      u_color: (_: unknown, p: LineGlobeProps) => p.o.colour,
    },
    depth: { enable: false }, blend,
  });

  const release = () => {
    fill?.position.destroy();
    fill?.colour.destroy();
    fill = null;
    for (const o of outlines) {
      o.from.destroy();
      o.to.destroy();
      o.corner.destroy();
    }
    outlines = [];
  };

  return {
    setAreas(areas) {
      release();
      if (!areas.length) return;
      // Least severe first: the most severe is drawn on top.
      const groups = [...CAP_SEVERITIES].reverse().map((severity) => ({
        rings: areas.filter((a) => a.severity === severity).flatMap((a) => a.rings),
        rgb: CAP_SEVERITY_COLOURS[severity],
      }));
      const mesh = polygonMesh(groups, CAP_FILL_ALPHA);
      origin = mesh.origin;
      if (mesh.fill.count) fill = { position: regl.buffer(mesh.fill.position), colour: regl.buffer(mesh.fill.colour), count: mesh.fill.count };
      for (const { rgb, set } of mesh.outlines) {
        const quads = segmentQuads(set, false, origin);
        if (!quads.count) continue;
        outlines.push({
          from: regl.buffer(quads.from), to: regl.buffer(quads.to), corner: regl.buffer(quads.corner), count: quads.count,
          colour: [rgb[0] / 255, rgb[1] / 255, rgb[2] / 255, 1],
        });
      }
    },
    draw(t) {
      for (const copy of t.copies) {
        if (fill) drawFill({ t, copy });
        for (const o of outlines) drawLine({ o, t, copy });
      }
    },
    drawGlobe(f) {
      if (fill) drawFillGlobe({ f });
      for (const o of outlines) drawLineGlobe({ o, f });
    },
    destroy: release,
  };
}
