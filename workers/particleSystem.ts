/**
 * The particles of the map: field and particle state in the WASM engine (SIMD or scalar kernel),
 * or in the plain-TypeScript reference when the /debug window or a benchmark asks for the 'ts'
 * kernel, so all three can be compared on the same device.
 */

import { PARTICLE_MAX_AGE, type View } from '../common/map.ts';
import { particleView, type Engine, type DecodedTileHandle, type FieldGrid, type ParticleView } from '../engine/engine.ts';
import { ReferenceField, ReferenceParticles } from '../engine/reference.ts';
import { spawnLatitudeTable, sphereSpawnTable } from '../engine/spawn.ts';
import type { Kernel } from './api.ts';

/** A fixed seed: the same view shows the same particles, which keeps tests and benches repeatable. */
const SEED = 0x15ba2;

export class ParticleSystem {
  private grid: FieldGrid | null = null;
  private referenceField: ReferenceField | null = null;
  private reference: ReferenceParticles | null = null;
  private kernel: Kernel = 'simd';
  private spawn: 'mercator' | 'sphere' = 'mercator';
  count = 0;

  constructor(private readonly engine: Engine) {}

  setGrid(grid: FieldGrid): void {
    this.grid = grid;
    this.engine.setFieldGrid(grid);
    this.referenceField = this.kernel === 'ts' ? new ReferenceField(grid) : null;
  }

  writeTile(params: { a: DecodedTileHandle; b: DecodedTileHandle; t: number; x: number; y: number }): void {
    this.engine.writeFieldTile(params);
    if (this.referenceField) {
      const decoded = (h: DecodedTileHandle) => ({ header: h.header, channels: [h.channel(0), h.channel(1)] });
      this.referenceField.writeTile({ ...params, a: decoded(params.a), b: decoded(params.b) });
    }
  }

  finishGrid(): void {
    this.engine.finishField();
    this.referenceField?.finish();
  }

  /**
   * Where fresh particles land: evenly over the flat map's screen (Mercator), or evenly over the
   * sphere's area on the globe (engine/spawn.ts sphereSpawnTable; the particle view's yTop and
   * yBottom are then sphereSpawnRange's). The plain-TS reference kernel spawns by the Mercator table.
   */
  setSpawn(spawn: 'mercator' | 'sphere'): void {
    if (spawn === this.spawn) return;
    this.spawn = spawn;
    this.engine.setSpawnTable(spawn === 'sphere' ? sphereSpawnTable() : spawnLatitudeTable());
  }

  /** (Re)spawns `count` particles over the view (or the given particle view: the globe's). */
  reset(count: number, view: View, seed = SEED, pv: ParticleView = particleView(view)): void {
    this.count = count;
    const params = { ...pv, count, seed, maxAge: PARTICLE_MAX_AGE };
    this.engine.initParticles(params);
    this.reference = this.kernel === 'ts' ? new ReferenceParticles(params) : null;
  }

  /** The last step's vertices. */
  vertices(): Float32Array {
    return this.kernel === 'ts' && this.reference ? this.reference.vertices : this.engine.vertices();
  }

  /** One step; returns the vertices, count * 4 floats relative to the view centre. */
  step(v: View, speed: number, kernel: Kernel, pv: ParticleView = particleView(v)): Float32Array {
    if (kernel !== this.kernel) {
      this.kernel = kernel;
      if (this.grid) this.setGrid(this.grid);
      this.reset(this.count, v, SEED, pv);
    }
    const view = pv;
    if (kernel === 'ts' && this.reference && this.referenceField) {
      this.reference.step(this.referenceField, { ...view, speed, maxAge: PARTICLE_MAX_AGE });
      return this.reference.vertices;
    }
    this.engine.stepParticles({ ...view, speed, maxAge: PARTICLE_MAX_AGE, kernel: kernel === 'ts' ? 'simd' : kernel });
    return this.engine.vertices();
  }
}
