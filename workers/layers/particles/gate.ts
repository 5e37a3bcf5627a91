/**
 * Whether the particle layer runs for an overlay, and which tile files the map asks for: the
 * catalogue's hide-particles flag (SPEC §3 Overlay definition) turns the particles off whatever
 * the overlay's layers or an opened file offer, so neither their wind tiles are fetched nor is the
 * particle system stepped.
 */

import { particleLayerOf, type Overlay, type RenderLayer } from '../../../common/catalogue/overlays.ts';

/** What an opened file offers (workers/local/localGrib.ts): only the layers it has. */
export interface ParticleSource {
  particleLayer(overlay: Overlay): RenderLayer | undefined;
}

/** The particle layer to run for an overlay, undefined for none. */
export function particleLayerFor(overlay: Overlay, local?: ParticleSource): RenderLayer | undefined {
  if (overlay.hideParticles) return undefined;
  return local ? local.particleLayer(overlay) : particleLayerOf(overlay);
}

/** Files a layer needs: the colour layer's and, when particles run and read another file, the particles'. */
export function layerFiles(color: RenderLayer, particles: RenderLayer | undefined, particlesOn: boolean): string[] {
  const files = [color.file];
  if (particles && particlesOn && !files.includes(particles.file)) files.push(particles.file);
  return files;
}
