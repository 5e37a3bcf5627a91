/** The application shell: the map and the controls around it. */

import { lazy, Suspense, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { effect } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { AccountButton } from './components/AccountButton.tsx';
import { GlobeControl } from './components/GlobeControl.tsx';
import { GribOpener } from './components/GribOpener.tsx';
import { IsolinesControl } from './components/IsolinesControl.tsx';
import { CapAlertsControl } from './components/CapAlertsControl.tsx';
import { ObsLayersControl } from './components/ObsLayersControl.tsx';
import { AccumulationRange } from './components/AccumulationRange.tsx';
import { Legend } from './components/Legend.tsx';
import { MenuButton } from './components/MenuButton.tsx';
import { LevelSelector } from './components/LevelSelector.tsx';
import { OverlayMenu } from './components/OverlayMenu.tsx';
import { Picker } from './components/Picker.tsx';
import { PointMark } from './components/PointMark.tsx';
import { ProductPicker } from './components/ProductPicker.tsx';
import { RunProgressBar } from './components/RunProgressBar.tsx';
import { isEditable, SearchButton } from './components/SearchButton.tsx';
import { Timeline } from './components/Timeline.tsx';
import { MapView } from './map/MapView.tsx';
import { createContextMenuModel, type ContextMenuModel } from './map/contextMenuModel.ts';
import { startGlobeMode } from './map/globeMode.ts';
import { PaneHost } from './panels/PaneHost.tsx';
import { PANELS } from './panels/panels.ts';
import { renderError } from './map/renderClient.ts';
import { useServices } from './services/ServicesContext.tsx';
import type { AppState } from './state/appState.ts';
import { startLiveProgress } from './state/liveProgress.ts';

// The top message and the bottom message area: lazy, loaded right after the first render.
const AppServices = lazy(() => import('./components/AppServices.tsx'));
// SPEC §2 radar window: the radar overlays' timeline, loaded when one shows.
const RadarTimeline = lazy(() => import('./panels/radar/RadarTimeline.tsx').then((m) => ({ default: m.RadarTimeline })));
// SPEC §1 satellite: the satellite overlay's timeline and credit, loaded when it shows.
const SatelliteTimeline = lazy(() => import('./panels/satellite/SatelliteTimeline.tsx').then((m) => ({ default: m.SatelliteTimeline })));
// SPEC §2 window "contextmenu": loaded on the first right-click on the map.
const ContextMenu = lazy(() => import('./components/ContextMenu.tsx'));
const BottomMessage = lazy(() => import('./components/AppServices.tsx').then((m) => ({ default: m.BottomMessage })));

export function App({ app }: { app: AppState }) {
  useSignals();
  const { t } = useTranslation();
  const hour12 = app.units.hour12.value;
  const { appServices } = useServices();
  const contextMenu = useMemo(() => createContextMenuModel(), []);
  // A right-pane window covers the right column (the overlay menu and the level selector): they step
  // aside (styles.css). The class is set on the shell's element directly: a render of the shell would
  // render every control under it again, in the task of the click that opened the window.
  const root = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => effect(() => {
    const open = app.panels.windows.value.some((w) => w.pane === 'rhpane' && w.phase !== 'closing');
    root.current?.classList.toggle('rhpane-open', open);
  }), [app]);

  // Messages, connection, error reports, consent, start-up position (services/compose.ts): their
  // chunk loads right after the first render, beside the component that shows their messages.
  useEffect(() => void appServices(), [appServices]);

  // Runs of the server's live sources on their way: the picker's "N of M steps" and the progress bar.
  useEffect(() => startLiveProgress(app), [app]);
  // SPEC §2 window "globe", §5 mapLibrary: the map follows the setting.
  useEffect(() => startGlobeMode(app), [app]);
  useEffect(() => {
    // SPEC §2 keyboard: left and right arrows step the forecast (not with Shift).
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLInputElement && e.target.type !== 'range') return;
      if (e.shiftKey || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
        e.preventDefault();
        app.timeline.step(e.key === 'ArrowLeft' ? -1 : 1);
      } else if ((e.key === 'f' || e.key === 'F') && !isEditable(e.target)) {
        // SPEC §2 keyboard: F opens search (the key is not typed into the field it focuses).
        e.preventDefault();
        void app.router.openPanel('search');
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [app]);

  useEffect(() => {
    // City labels (SPEC §3): their own chunk, started when the browser is idle after the first paint.
    // Then, idle again, the point forecast's code and language bundles: the window a map click or a
    // label opens most, whose first opening would otherwise parse its chunk on the spot (~120 ms
    // of a phone's main thread at 4x CPU).
    let layers: { dispose(): void }[] = [];
    let stopped = false;
    let idle = 0;
    const whenIdle = (run: () => void) => {
      idle = typeof requestIdleCallback === 'function' ? requestIdleCallback(run, { timeout: 1500 }) : window.setTimeout(run, 300);
    };
    const warmDetail = () => {
      const detail = PANELS.detail;
      void Promise.all([detail.load(), detail.prepare?.()]).catch(() => undefined);
    };
    const start = () => void Promise.all([import('./labels/cityLabels.ts'), import('./labels/isolineLabels.ts'), import('./labels/basemapLabels.ts')]).then(([cities, isolines, basemap]) => {
      if (stopped) return;
      // The base map's names first: under the city and isoline labels.
      layers = [basemap.startBasemapLabels(app), cities.startCityLabels(app), isolines.startIsolineLabels(app)];
      whenIdle(warmDetail);
    });
    whenIdle(start);
    return () => {
      stopped = true;
      if (typeof cancelIdleCallback === 'function') cancelIdleCallback(idle);
      else window.clearTimeout(idle);
      layers.forEach((layer) => layer.dispose());
    };
  }, [app]);

  // The data error is a top message (services/dataErrorMessage.ts); a map that cannot be drawn says so here.
  const error = renderError.value;
  return (
    <div ref={root} className="app">
      <MapView app={app} contextMenu={contextMenu} />
      <RunProgressBar />
      <header className="topbar">
        <MenuButton app={app} />
        <span className="brand">{t('app.name')}</span>
        <SearchButton app={app} />
        {app.data.demo.value && (
          <span className="demo-badge" title={t('app.demoDataHint')} data-testid="demo-badge">{t('app.demoData')}</span>
        )}
        <ProductPicker app={app} />
        <GribOpener app={app} />
        <AccountButton app={app} />
      </header>
      <PointMark app={app} />
      <Picker app={app} />
      <GlobeControl app={app} />
      <div className="map-controls-right">
        <IsolinesControl app={app} />
        <CapAlertsControl app={app} />
        <ObsLayersControl app={app} />
        <LevelSelector app={app} />
        <AccumulationRange app={app} />
      </div>
      <div className="bottom">
        <OverlayMenu app={app} />
        <Suspense fallback={null}><BottomMessage app={app} /></Suspense>
        <Legend app={app} />
        {app.radar.active.value
          ? <Suspense fallback={null}><RadarTimeline app={app} hour12={hour12} /></Suspense>
          : app.satellite.active.value
            ? <Suspense fallback={null}><SatelliteTimeline app={app} hour12={hour12} /></Suspense>
            : <Timeline app={app} hour12={hour12} />}
      </div>
      <PaneHost app={app} />
      <ContextMenuHost model={contextMenu}>{() => <ContextMenu app={app} model={contextMenu} />}</ContextMenuHost>
      <Suspense fallback={null}><AppServices /></Suspense>
      {error && <div className="banner error" role="alert">{error}</div>}
    </div>
  );
}

/**
 * Mounts the context menu's chunk from its first use on (the menu then stays mounted: its "copied" line
 * outlives it). The host, not the shell, follows where the menu is.
 */
function ContextMenuHost({ model, children }: { model: ContextMenuModel; children: () => ReactNode }) {
  useSignals();
  const used = model.at.value !== null;
  const [mounted, setMounted] = useState(false);
  if (used && !mounted) setMounted(true);
  return mounted ? <Suspense fallback={null}>{children()}</Suspense> : null;
}
