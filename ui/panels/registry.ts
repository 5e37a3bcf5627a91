/**
 * What a panel of the registry (panels.ts) is: a component of these props. The panels import this
 * file and panels.ts imports the panels (lazily), so the two are apart: an import back from a
 * panel to the list of panels would close an import loop.
 */

import type { ComponentType } from 'react';
import type { AppState } from '../state/appState.ts';
import type { WindowPhase } from './panelModel.ts';

export interface PanelProps {
  app: AppState;
  params: Readonly<Record<string, unknown>>;
  /** Rises each time the panel is asked to open again while open (SPEC §4: re-run the open handler). */
  openCount: number;
  phase: WindowPhase;
  close(): void;
}

export type PanelComponent = ComponentType<PanelProps>;
