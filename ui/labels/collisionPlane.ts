/**
 * One collision plane for the labels on the map (issue 14 §1 and §3): each kind of label (city
 * labels, isoline labels, base-map place names) publishes the boxes it drew, in world pixels at
 * the zoom it drew them for, and a kind of lower rank keeps its labels clear of the boxes of the
 * kinds above it. City labels come first: they carry the forecast values.
 */

import type { Box } from './labelObstacles.ts';

/** Ranks, highest first: a kind keeps clear of every kind listed before it. */
export const LABEL_RANKS = ['cities', 'isolines', 'basemap'] as const;
export type LabelKind = (typeof LABEL_RANKS)[number];

export function boxesOverlap(a: Box, b: Box): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

export class CollisionPlane {
  private readonly published = new Map<LabelKind, { zoom: number; boxes: readonly Box[] }>();
  private readonly listeners = new Set<(kind: LabelKind) => void>();

  /** The boxes `kind` draws now (world px at `zoom`); kinds below it are told. */
  publish(kind: LabelKind, zoom: number, boxes: readonly Box[]): void {
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

  /** Called with the kind whose boxes changed; returns the unsubscribe. */
  subscribe(listener: (kind: LabelKind) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

function sameBoxes(a: readonly Box[], b: readonly Box[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i].left !== b[i].left || a[i].top !== b[i].top || a[i].right !== b[i].right || a[i].bottom !== b[i].bottom) return false;
  }
  return true;
}

/** The page's one plane. */
export const labelPlane = new CollisionPlane();
