/**
 * The /debug window (SPEC §2 named windows; DESIGN "Who uses it"): live engine figures from the
 * render worker — frames per second, worker frame time, particle step time, tile cache — and a
 * switch of the particle kernel (WASM SIMD, WASM scalar, plain TypeScript) to compare them on the
 * device at hand. Loaded lazily: nothing of it is in the initial bundle.
 */

import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Kernel, RenderStats } from '../../workers/api.ts';
import { renderClient } from '../map/renderClient.ts';

const KERNELS: Kernel[] = ['simd', 'scalar', 'ts'];
const POLL_MS = 500;

export default function DebugPanel() {
  const { t } = useTranslation();
  const [stats, setStats] = useState<RenderStats | null>(null);
  useEffect(() => {
    let alive = true;
    const poll = async () => {
      const s = await renderClient.api().stats();
      if (alive) setStats(s);
    };
    void poll();
    const timer = setInterval(() => void poll(), POLL_MS);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, []);
  if (!stats) return null;
  const rows: [string, string][] = [
    [t('debug.fps'), String(stats.fps)],
    [t('debug.frame'), `${stats.frameMsP50.toFixed(2)} / ${stats.frameMsP95.toFixed(2)} ms`],
    [t('debug.step'), `${stats.stepMsP50.toFixed(3)} ms`],
    [t('debug.raster'), `${stats.rasterMs.toFixed(2)} ms`],
    [t('debug.particles'), String(stats.particles)],
    [t('debug.dataZoom'), String(stats.dataZoom)],
    [t('debug.tiles'), `${stats.tiles.loaded} / ${stats.tiles.loading} / ${stats.tiles.failed} (${stats.tiles.total} of ${stats.tiles.capacity})`],
    [t('debug.renderer'), stats.renderer],
  ];
  return (
    <section className="debug-panel" aria-label={t('debug.title')} data-testid="debug-panel">
      <h2>{t('debug.title')}</h2>
      <dl>
        {rows.map(([k, v]) => (
          <div key={k}><dt>{k}</dt><dd>{v}</dd></div>
        ))}
      </dl>
      <fieldset>
        <legend>{t('debug.kernel')}</legend>
        {KERNELS.map((k) => (
          <label key={k}>
            <input type="radio" name="kernel" value={k} checked={stats.kernel === k}
              onChange={() => void renderClient.api().setKernel({ kernel: k }).then(async () => setStats(await renderClient.api().stats()))} />
            {t(`debug.kernels.${k}`)}
          </label>
        ))}
      </fieldset>
    </section>
  );
}
