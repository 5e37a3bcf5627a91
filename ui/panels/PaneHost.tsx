/**
 * Draws the open windows in their panes (panelModel.ts). A window carries the class `open` from
 * 50 ms after it enters the DOM and `closing` for the 500 ms before it leaves (SPEC §4), so CSS
 * transitions run both ways.
 *
 * The panes follow the window list at once (a closing window's phase reaches it in the same task),
 * but the first render of a tool window's content (right pane, bottom pane: a diagram, a table, a
 * forecast) is deferred: the window's frame appears in the click's task and its content renders in
 * slices that leave the main thread free in between (issue 16: no task over 50 ms when a window
 * opens). Windows that take typing at once (search, login) render whole.
 */

import { memo, useCallback, useDeferredValue } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import type { AppState } from '../state/appState.ts';
import type { Pane } from './panelModel.ts';
import type { PanelComponent, PanelProps } from './registry.ts';

const PANES: readonly Pane[] = ['top', 'rhpane', 'center', 'bottom', 'small-bottom-bottom', 'fullscreen-mobile'];
/** The panes whose windows render their content after their frame (see above). */
const DEFERRED_PANES: readonly Pane[] = ['rhpane', 'bottom', 'fullscreen-mobile'];

export function PaneHost({ app }: { app: AppState }) {
  useSignals();
  const windows = app.panels.windows.value;
  return (
    <>
      {PANES.map((pane) => {
        const here = windows.filter((w) => w.pane === pane);
        if (!here.length) return null;
        return (
          <div key={pane} className={`pane pane-${pane}`} data-pane={pane}>
            {here.map((w) => {
              const Component = app.panels.component(w.ident);
              if (!Component) return null;
              const classes = ['window', `window-${w.ident}`, w.phase === 'open' ? 'open' : '', w.phase === 'closing' ? 'closing' : '', w.instant ? 'instant' : ''];
              return (
                <section key={w.ident} className={classes.filter(Boolean).join(' ')} data-panel={w.ident} data-phase={w.phase}>
                  <WindowBody app={app} ident={w.ident} Component={Component} params={w.params} openCount={w.openCount} phase={w.phase}
                    deferred={DEFERRED_PANES.includes(pane)} />
                </section>
              );
            })}
          </div>
        );
      })}
    </>
  );
}

interface WindowBodyProps {
  app: AppState;
  ident: string;
  Component: PanelComponent;
  params: Readonly<Record<string, unknown>>;
  openCount: number;
  phase: PanelProps['phase'];
  deferred: boolean;
}

/** One window's content; memo: another window opening or closing does not render it again. */
const WindowBody = memo(function WindowBody({ app, ident, Component, params, openCount, phase, deferred }: WindowBodyProps) {
  // false on the first render of a deferred window, then true in a render of transition priority.
  const shown = useDeferredValue(true, !deferred);
  const close = useCallback(() => app.router.closePanel(ident), [app, ident]);
  return shown ? <Component app={app} params={params} openCount={openCount} phase={phase} close={close} /> : null;
});
