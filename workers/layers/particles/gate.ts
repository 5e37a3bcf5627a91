/**
 * Whether the particle layer runs for an overlay, and which tile files the map asks for: the
 * catalogue's hide-particles flag (SPEC §3 Overlay definition) turns the particles off whatever
 * the overlay's layers or an opened file offer, so neither their wind tiles are fetched nor is the
 * particle system stepped.
 */

import { particleLayerOf, type Overlay, type RenderLayer } from '../../../common/catalogue/overlays.ts';
import { runHas, type RunLayers } from '../../layerFiles.ts';

/** What an opened file offers (workers/local/localGrib.ts): only the layers it has. */
export interface ParticleSource {
  particleLayer(overlay: Overlay): RenderLayer | undefined;
}

/**
 * The particle layer to run for an overlay, undefined for none. An ingested run lists its tile
 * files and their levels (the minifest's `layers`, common/minifest.ts Calendar): a particle layer
 * whose file the run lacks at the level (the GFS-Wave sample has wave height but no wave flow) is
 * left out, so no tile is asked for that cannot come; the colour layer is drawn as ever.
 */
export function particleLayerFor(overlay: Overlay, local?: ParticleSource, run?: { level: string; layers?: RunLayers }): RenderLayer | undefined {
  if (overlay.hideParticles) return undefined;
  if (local) return local.particleLayer(overlay);
  const layer = particleLayerOf(overlay) ?? undefined;
  return layer && (!run || runHas(run.layers, layer.file, run.level)) ? layer : undefined;
}

/** Files a layer needs: the colour layer's and, when particles run and read another file, the particles'. */
export function layerFiles(color: RenderLayer, particles: RenderLayer | undefined, particlesOn: boolean): string[] {
  const files = [color.file];
  if (particles && particlesOn && !files.includes(particles.file)) files.push(particles.file);
  return files;
}
