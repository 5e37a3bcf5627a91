import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServer, REPO_ROOT, SERVER_ENTRIES } from './build.ts';

const dirs: string[] = [];
afterAll(async () => {
  delete (globalThis as { __isobarBuiltServer?: unknown }).__isobarBuiltServer;
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('buildServer', () => {
  it('bundles a module whose import.meta.url is still its source, and maps task modules to their bundles', async () => {
    const outDir = await mkdtemp(join(tmpdir(), 'isobar-build-'));
    dirs.push(outDir);
    const [bundle] = await buildServer({ outDir, entries: ['server/ops/testdata/builtProbe.ts'] });
    expect(bundle).toBe(join(outDir, 'server/ops/testdata/builtProbe.js'));
    expect(existsSync(`${bundle}.map`)).toBe(true);
    const { probe } = await import(/* @vite-ignore */ pathToFileURL(bundle).href) as { probe: { url: string; wasm: string; built: boolean; tileThread: string } };
    const root = pathToFileURL(REPO_ROOT).href;
    expect(probe.url).toBe(`${root}server/ops/testdata/builtProbe.ts`);
    expect(probe.wasm).toBe(`${root}engine/build/release.wasm`);
    expect(probe.built).toBe(true);
    expect(probe.tileThread).toBe(`${pathToFileURL(outDir).href}/server/data/tileThread.js`);
  });

  it('has an entry for every task module a worker pool of the server loads by URL', async () => {
    // WorkerPool({ module: new URL('./x.ts', import.meta.url) }): the built server loads x's own bundle.
    const modules: string[] = [];
    for (const file of await readdir(join(REPO_ROOT, 'server'), { recursive: true })) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
      const text = await readFile(join(REPO_ROOT, 'server', file), 'utf8');
      for (const match of text.matchAll(/module: new URL\('([^']+\.ts)', import\.meta\.url\)/g)) {
        modules.push(relative(REPO_ROOT, join(REPO_ROOT, 'server', dirname(file), match[1])).split('\\').join('/'));
      }
    }
    expect(modules.length).toBeGreaterThanOrEqual(2);
    for (const module of modules) expect(SERVER_ENTRIES).toContain(module);
  });
});
