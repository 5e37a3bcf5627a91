import { describe, expect, it } from 'vitest';
import { builtTwin, isBuiltServer, runtimeModule } from './builtModules.ts';

const server = { sources: 'file:///srv/isobar/', bundles: 'file:///srv/isobar/dist-server/' };

describe('builtTwin', () => {
  it('maps a source module to the bundle of the same path', () => {
    expect(builtTwin(new URL('file:///srv/isobar/server/data/tileThread.ts'), server).href).toBe('file:///srv/isobar/dist-server/server/data/tileThread.js');
    expect(builtTwin(new URL('file:///srv/isobar/tests/fixedClockServer.mts'), server).href).toBe('file:///srv/isobar/dist-server/tests/fixedClockServer.mjs');
  });

  it('refuses a module outside the sources, and one that is not TypeScript', () => {
    expect(() => builtTwin(new URL('file:///elsewhere/x.ts'), server)).toThrow('is not a module of this server');
    expect(() => builtTwin(new URL('file:///srv/isobar/server/data/workerEntry.mjs'), server)).toThrow('only TypeScript modules');
  });
});

describe('runtimeModule', () => {
  it('is the source module itself outside the built server (tsx, vitest)', () => {
    expect(isBuiltServer).toBe(false);
    const source = new URL('../data/tileThread.ts', import.meta.url);
    expect(runtimeModule(source)).toBe(source);
  });
});
