/**
 * One collision plane for the labels on the map (issue 14 §1 and §3): each kind of label (city
 * labels, isoline labels, base-map place names) publishes the boxes it drew, in world pixels at
 * the zoom it drew them for, and a kind of lower rank keeps its labels clear of the boxes of the
 * kinds above it. City labels come first: they carry the forecast values; then the forecast times
 * of storms (ui/panels/hurricanes/forecastLabels.ts). A box may say which
 * place it names, so that a kind below does not name the same place again (a base-map place
 * where a city label stands).
 */

import { angularDistance } from '../../common/globe.ts';
import type { Box } from './labelObstacles.ts';

/** A label's box, with the place it names where it names one. */
export interface LabelBox extends Box {
  place?: { name: string; lon: number; lat: number };
}

/**
 * Two labels of one name (compared without case and accents) within this angle, degrees (about
 * 25 km), name the same place: a city's label point and a base map's point for it lie a few
 * kilometres apart at most.
 */
export const SAME_PLACE_DEG = 0.25;

/** A name compared without case and accents ("Zürich" = "zurich"). */
export function placeNameKey(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase('en').trim();
}

/** Ranks, highest first: a kind keeps clear of every kind listed before it. */
export const LABEL_RANKS = ['cities', 'storms', 'isolines', 'basemap'] as const;
export type LabelKind = (typeof LABEL_RANKS)[number];

export function boxesOverlap(a: Box, b: Box): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

export class CollisionPlane {
  private readonly published = new Map<LabelKind, { zoom: number; boxes: readonly LabelBox[] }>();
  private readonly listeners = new Set<(kind: LabelKind) => void>();

  /** The boxes `kind` draws now (world px at `zoom`); kinds below it are told. */
  publish(kind: LabelKind, zoom: number, boxes: readonly LabelBox[]): void {
    const before = this.published.get(kind);
    if (before && before.zoom === zoom && sameBoxes(before.boxes, boxes)) return;
    this.published.set(kind, { zoom, boxes });
    for (const listener of this.listeners) listener(kind);
  }

  /** Whether a box of `kind` (world px at `zoom`) touches a box of a kind ranked above it. */
  blocked(kind: LabelKind, zoom: number, box: Box): boolean {
    for (const above of LABEL_RANKS) {
      if (above === kind) return false;
      const entry = this.published.get(above);
      if (!entry || entry.zoom !== zoom) continue;
      for (const b of entry.boxes) if (boxesOverlap(box, b)) return true;
    }
    return false;
  }

  /**
   * Whether a kind ranked above `kind` draws a label naming the place called one of `names` at
   * (lon, lat): the same name within SAME_PLACE_DEG.
   */
  named(kind: LabelKind, names: readonly string[], lon: number, lat: number): boolean {
    const keys = names.map(placeNameKey);
    for (const above of LABEL_RANKS) {
      if (above === kind) return false;
      for (const b of this.published.get(above)?.boxes ?? []) {
        if (b.place && keys.includes(placeNameKey(b.place.name)) && angularDistance(lon, lat, b.place.lon, b.place.lat) <= SAME_PLACE_DEG) return true;
      }
    }
    return false;
  }

  /** Called with the kind whose boxes changed; returns the unsubscribe. */
  subscribe(listener: (kind: LabelKind) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

function sameBoxes(a: readonly LabelBox[], b: readonly LabelBox[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i].left !== b[i].left || a[i].top !== b[i].top || a[i].right !== b[i].right || a[i].bottom !== b[i].bottom) return false;
    if (a[i].place?.name !== b[i].place?.name) return false;
  }
  return true;
}

/** The page's one plane. */
export const labelPlane = new CollisionPlane();
