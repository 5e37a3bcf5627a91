/**
 * The router (SPEC §2 "Path handling", "Routes", browser back): the address bar's path opens a
 * window; opening a routed window writes its path; browser back opens what the target path names,
 * or closes every panel when it names nothing, and re-centres the map on the shared coordinates of
 * the target's search part.
 *
 * The language prefix and the search part are kept as they are when the path changes.
 */

import { parsePath, withLanguage, type ParsedPath } from '../../common/routes.ts';
import { parseSearch } from '../../common/url.ts';
import type { Language } from '../../common/languages.ts';
import type { PanelModel } from '../panels/panelModel.ts';
import type { LayerModel } from './layerModel.ts';
import type { MapModel } from './mapModel.ts';
import type { UsageLog } from './usage.ts';

export interface Router {
  /** What the page was opened with. */
  readonly initial: ParsedPath;
  /** Opens a window and writes its path (pushState). */
  navigate(path: string): Promise<boolean>;
  /** Opens a panel that has no path of its own (search, picker ...). */
  openPanel(ident: string, params?: Record<string, unknown>): Promise<boolean>;
  /** Closes a panel; a routed one puts the home path back in the address bar. */
  closePanel(ident: string): void;
  /** Applies the current path (start-up). */
  start(): void;
  dispose(): void;
}

export interface RouterDeps {
  panels: PanelModel;
  map: MapModel;
  layer: LayerModel;
  usage: UsageLog;
  mobile: () => boolean;
  lang: () => Language | null;
  location?: Pick<Location, 'pathname' | 'search' | 'hash'>;
  history?: Pick<History, 'pushState' | 'replaceState' | 'state'>;
  target?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
}

export function createRouter(deps: RouterDeps): Router {
  const browser = typeof window !== 'undefined';
  const loc = deps.location ?? (browser ? window.location : { pathname: '/', search: '', hash: '' });
  const hist = deps.history ?? (browser ? window.history : { state: null, pushState() {}, replaceState() {} });
  const target = deps.target ?? (browser ? window : { addEventListener() {}, removeEventListener() {} });
  const initial = parsePath(loc.pathname, { mobile: deps.mobile() });
  /** Routed windows open now, the last one's path in the address bar. */
  let routed: { ident: string; path: string }[] = [];
  const forget = (ident: string) => {
    routed = routed.filter((r) => r.ident !== ident);
  };

  const apply = async (parsed: ParsedPath, origin: 'start' | 'back' | 'navigate'): Promise<boolean> => {
    if (parsed.seoOverlay) deps.layer.setOverlay(parsed.seoOverlay);
    const { route } = parsed;
    if (route.unknown) {
      deps.usage.log('404', parsed.path);
      if (origin === 'back') deps.panels.closeAll();
      return false;
    }
    if (route.home || !route.window) {
      if (origin === 'start') deps.usage.log('startup');
      if (origin === 'back') deps.panels.closeAll();
      routed = [];
      return origin !== 'back';
    }
    // A deep link to a place shows the place, whether or not its window exists yet (sounding,
    // multimodel, cap-alert): the route's coordinates win over the search part's, whose zoom stays.
    // (A point window then brings its place beside itself: ui/panels/usePointMark.ts.)
    if (origin === 'start' && typeof route.params.lat === 'number' && typeof route.params.lon === 'number') {
      deps.map.moveTo({ lat: route.params.lat, lon: route.params.lon });
    }
    if (!deps.panels.has(route.window)) {
      deps.usage.log('404', parsed.path);
      deps.panels.open(route.window, route.params).catch(() => {});
      return false;
    }
    forget(route.window);
    routed.push({ ident: route.window, path: parsed.path });
    return deps.panels.open(route.window, route.params);
  };

  const onPopState = () => {
    const parsed = parsePath(loc.pathname, { mobile: deps.mobile() });
    void apply(parsed, 'back');
    const { state } = parseSearch(loc.search);
    if (state.lat !== undefined && state.lon !== undefined) deps.map.moveTo({ lat: state.lat, lon: state.lon, zoom: state.zoom });
  };

  const write = (path: string, push: boolean) => {
    const url = `${withLanguage(path, deps.lang())}${loc.search}${loc.hash}`;
    if (push) hist.pushState(hist.state, '', url);
    else hist.replaceState(hist.state, '', url);
  };

  return {
    initial,
    async navigate(path) {
      const parsed = parsePath(path, { mobile: deps.mobile() });
      write(parsed.path, true);
      return apply(parsed, 'navigate');
    },
    openPanel: (ident, params) => deps.panels.open(ident, params),
    closePanel(ident) {
      deps.panels.close(ident);
      const wasShown = routed.at(-1)?.ident === ident;
      forget(ident);
      // Windows the pane rules closed meanwhile are gone from the list too.
      routed = routed.filter((r) => deps.panels.isOpen(r.ident));
      if (wasShown) write(routed.at(-1)?.path ?? '/', true);
    },
    start() {
      target.addEventListener('popstate', onPopState);
      void apply(initial, 'start');
    },
    dispose() {
      target.removeEventListener('popstate', onPopState);
    },
  };
}
