/**
 * What a run has, and what carries over when the layer changes.
 *
 * - An ingested run lists its tile files and their levels (the minifest's `layers`, common/minifest.ts);
 *   without the list (the demo product) every catalogue file is there. layers/particles/gate.ts
 *   asks for no particle file the run lacks.
 * - The step shown before stands in while a new time loads, and the particle trails fade into the
 *   new raster, only while the same data stays on screen (product, colour layer and level): after an
 *   overlay switch nothing of the previous layer's colours may stay.
 */

/** Tile file -> levels of a run. */
export type RunLayers = Readonly<Record<string, readonly string[]>>;

/** Whether a run has a tile file at a level (true when the run does not say). */
export function runHas(layers: RunLayers | undefined, file: string, level: string): boolean {
  return !layers || !!layers[file]?.includes(level);
}

export interface ShownData {
  product: string;
  color: string;
  level: string;
}

/** Whether what was shown may stand in for (and fade into) the next layer: the same data only. */
export function sameShownData(previous: ShownData | null, next: ShownData): boolean {
  return !!previous && previous.product === next.product && previous.color === next.color && previous.level === next.level;
}
