/**
 * The registry of the lazily loaded panels (SPEC §2 "Panels and panes"): each one's pane, its code
 * chunk and its language bundle, loaded when it first opens (panelModel.ts). Add a panel with one
 * entry here. The composition root passes it to the app state (ui/main.ts); the props a panel gets
 * are in registry.ts.
 */

import { loadAccount } from '../account/loadAccount.ts';
import type { PanelDef } from './panelModel.ts';
import type { PanelComponent } from './registry.ts';

/**
 * i18next is not part of the page's first script (ui/main.ts starts the render worker before the
 * UI loads): the registry reaches it through a dynamic import, resolved by then.
 */
const loadBundle = (bundle: string) => import('../i18n.ts').then((m) => m.loadBundle(bundle));

const panel = (def: PanelDef<PanelComponent> & { bundle?: string }): PanelDef<PanelComponent> => ({
  ...def,
  prepare: def.bundle ? () => Promise.all([loadBundle(def.bundle!), def.prepare?.()]) : def.prepare,
});

// The windows that use the account load its code (its own chunk) before they open: they draw it as
// soon as ui/services/compose.ts has started it.
export const PANELS: Readonly<Record<string, PanelDef<PanelComponent>>> = {
  settings: panel({ ident: 'settings', pane: 'rhpane', mobilePane: 'fullscreen-mobile', bundle: 'settings', load: () => import('./settings/SettingsPanel.tsx') }),
  menu: panel({ ident: 'menu', pane: 'rhpane', mobilePane: 'fullscreen-mobile', bundle: 'menu', load: () => import('./menu/MenuPanel.tsx') }),
  'map-selector': panel({ ident: 'map-selector', pane: 'small-bottom-bottom', bundle: 'menu', load: () => import('./mapSelector/MapSelectorPanel.tsx') }),
  debug: panel({ ident: 'debug', pane: 'top', load: () => import('../components/DebugPanel.tsx') }),
  // The favorite star in its header speaks from the favs bundle and uses the account.
  // Its tide row and nearest stations speak from the tides and station bundles.
  detail: panel({ ident: 'detail', pane: 'bottom', mobilePane: 'fullscreen-mobile', bundle: 'detail', prepare: () => Promise.all([loadBundle('favs'), loadBundle('tides'), loadBundle('station'), loadAccount()]), load: () => import('./detail/DetailPanel.tsx') }),
  // SPEC §2 /station/{id}[/{view}]; its star is the favs bundle's.
  station: panel({ ident: 'station', pane: 'bottom', mobilePane: 'fullscreen-mobile', bundle: 'station', prepare: () => Promise.all([loadBundle('favs'), loadAccount()]), load: () => import('./station/StationPanel.tsx') }),
  consent: panel({ ident: 'consent', pane: 'small-bottom-bottom', bundle: 'consent', neverCloses: true, load: () => import('./consent/ConsentPanel.tsx') }),
  search: panel({ ident: 'search', pane: 'top', mobilePane: 'fullscreen-mobile', bundle: 'search', load: () => import('./search/SearchPanel.tsx') }),
  startupWeather: panel({ ident: 'startupWeather', pane: 'top', load: () => import('./startupWeather/StartupWeatherPanel.tsx') }),
  login: panel({ ident: 'login', pane: 'center', mobilePane: 'fullscreen-mobile', bundle: 'register', prepare: loadAccount, load: () => import('./login/LoginPanel.tsx') }),
  register: panel({ ident: 'register', pane: 'center', mobilePane: 'fullscreen-mobile', bundle: 'register', prepare: loadAccount, load: () => import('./login/RegisterPanel.tsx') }),
  favs: panel({ ident: 'favs', pane: 'rhpane', mobilePane: 'fullscreen-mobile', bundle: 'favs', prepare: loadAccount, load: () => import('./favs/FavsPanel.tsx') }),
  subscription: panel({ ident: 'subscription', pane: 'rhpane', mobilePane: 'fullscreen-mobile', bundle: 'subscription', prepare: loadAccount, load: () => import('./subscription/SubscriptionPanel.tsx') }),
  'pending-subscription': panel({ ident: 'pending-subscription', pane: 'rhpane', mobilePane: 'fullscreen-mobile', bundle: 'subscription', prepare: loadAccount, load: () => import('./subscription/PendingSubscriptionPanel.tsx') }),
  'cap-alert': panel({ ident: 'cap-alert', pane: 'rhpane', mobilePane: 'fullscreen-mobile', bundle: 'livealerts', load: () => import('./capAlert/CapAlertPanel.tsx') }),
  // SPEC §2 route /radarPlus: the radar-plus window (the radar overlay's timeline is RadarTimeline).
  'radar-plus': panel({ ident: 'radar-plus', pane: 'rhpane', mobilePane: 'fullscreen-mobile', bundle: 'radsat', load: () => import('./radar/RadarPlusPanel.tsx') }),
  alerts: panel({ ident: 'alerts', pane: 'rhpane', mobilePane: 'fullscreen-mobile', bundle: 'alerts', prepare: loadAccount, load: () => import('./alerts/AlertsPanel.tsx') }),
  // SPEC §2 /airport/{ICAO}: the favourite star uses the account.
  airport: panel({ ident: 'airport', pane: 'rhpane', mobilePane: 'fullscreen-mobile', bundle: 'airport', prepare: loadAccount, load: () => import('./airport/AirportPanel.tsx') }),
  // SPEC §2 windows without a route, opened by the context menu with a point.
  'nearest-airports': panel({ ident: 'nearest-airports', pane: 'rhpane', mobilePane: 'fullscreen-mobile', bundle: 'airport', load: () => import('./airport/NearestAirportsPanel.tsx') }),
  'nearest-stations': panel({ ident: 'nearest-stations', pane: 'rhpane', mobilePane: 'fullscreen-mobile', bundle: 'station', load: () => import('./station/NearestStationsPanel.tsx') }),
  hurricanes: panel({ ident: 'hurricanes', pane: 'rhpane', mobilePane: 'fullscreen-mobile', bundle: 'hurricanes', load: () => import('./hurricanes/HurricanesPanel.tsx') }),
  // SPEC §2: in the right pane the two replace each other without animation (panelModel.ts).
  sounding: panel({ ident: 'sounding', pane: 'rhpane', mobilePane: 'fullscreen-mobile', bundle: 'sounding', load: () => import('./sounding/SoundingPanel.tsx') }),
  radiosonde: panel({ ident: 'radiosonde', pane: 'rhpane', mobilePane: 'fullscreen-mobile', bundle: 'sounding', load: () => import('./sounding/RadiosondePanel.tsx') }),
  // SPEC §2 /multimodel/{lat}/{lon}: in the bottom pane (the point forecast replaces it); a right-pane or
  // full-screen panel closes it (panelModel.ts). Its rows speak from the detail bundle too.
  multimodel: panel({ ident: 'multimodel', pane: 'bottom', mobilePane: 'fullscreen-mobile', bundle: 'multimodel', prepare: () => loadBundle('detail'), load: () => import('./multimodel/MultimodelPanel.tsx') }),
  // SPEC §2 /webcams, /webcams/{id}, /webcams/add, /webcams/edit/{id}, /webcams/remove/{id}: the user's own
  // webcams are in the account.
  webcams: panel({ ident: 'webcams', pane: 'rhpane', mobilePane: 'fullscreen-mobile', bundle: 'webcams', prepare: loadAccount, load: () => import('./webcams/WebcamsPanel.tsx') }),
  'webcams-add': panel({ ident: 'webcams-add', pane: 'rhpane', mobilePane: 'fullscreen-mobile', bundle: 'webcams', prepare: loadAccount, load: () => import('./webcams/WebcamEdit.tsx').then((m) => ({ default: m.WebcamAddPanel })) }),
  'webcams-edit': panel({ ident: 'webcams-edit', pane: 'rhpane', mobilePane: 'fullscreen-mobile', bundle: 'webcams', prepare: loadAccount, load: () => import('./webcams/WebcamEdit.tsx').then((m) => ({ default: m.WebcamEditPanel })) }),
  'webcams-remove': panel({ ident: 'webcams-remove', pane: 'rhpane', mobilePane: 'fullscreen-mobile', bundle: 'webcams', prepare: loadAccount, load: () => import('./webcams/WebcamEdit.tsx').then((m) => ({ default: m.WebcamRemovePanel })) }),
  'alerts-edit': panel({ ident: 'alerts-edit', pane: 'rhpane', mobilePane: 'fullscreen-mobile', bundle: 'alerts', prepare: loadAccount, load: () => import('./alerts/AlertEditPanel.tsx') }),
};
