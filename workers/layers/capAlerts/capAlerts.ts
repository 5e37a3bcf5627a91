/**
 * The capAlerts layer (SPEC §3 renderer kind "cap alerts"): the active warnings' areas filled
 * translucent and outlined in their severity's colour (common/capAlerts.ts), drawn by the vector
 * layer (workers/layers/vector) over the colour raster, on the flat map and the globe. Overlapping
 * areas of one severity are filled once; the most severe is drawn on top.
 */

import { CAP_SEVERITIES, CAP_SEVERITY_COLOURS, pointInRing, severityRank, type CapSeverity } from '../../../common/capAlerts.ts';
import type { LonLatShapes } from '../../api.ts';

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

/** The areas as vector shapes: a fill per severity, least severe first, and each ring outlined. */
export function capAlertShapes(areas: readonly CapAlertArea[]): LonLatShapes {
  const shapes: LonLatShapes = { lines: [], points: [], fills: [] };
  for (const severity of [...CAP_SEVERITIES].reverse()) {
    const rings = areas.filter((a) => a.severity === severity).flatMap((a) => a.rings);
    if (!rings.length) continue;
    const [r, g, b] = CAP_SEVERITY_COLOURS[severity].map((c) => c / 255);
    shapes.fills.push({ rings, color: [r, g, b, CAP_FILL_ALPHA] });
    for (const ring of rings) shapes.lines.push({ points: ring, colors: Array.from({ length: ring.length / 2 }, () => [r, g, b, 1]).flat(), widthPx: CAP_OUTLINE_PX });
  }
  return shapes;
}
