/**
 * Isolines (SPEC §3 isolinesType / isolinesOn, §2 URL item i:{isolines type}): whether they show and
 * which type, for the products whose model definition lists isolines. The settings hold the choice;
 * an address with i:{type} turns them on with that type at start-up (the shared link shows what
 * its sender saw). A product that does not list the chosen type shows none, and the control offers
 * the types it does list.
 */

import { computed, type ReadonlySignal } from '@preact/signals-core';
import { isIsolineType, productIsolines, type IsolineType } from '../../common/isolines.ts';
import type { LayerModel } from './layerModel.ts';
import type { SettingsStore } from './settingsStore.ts';

export interface IsolinesModel {
  /** The types the shown product offers (its model definition's isolines list). */
  readonly offered: ReadonlySignal<readonly IsolineType[]>;
  readonly on: ReadonlySignal<boolean>;
  /** The chosen type (isolinesType), offered here or not. */
  readonly type: ReadonlySignal<IsolineType>;
  /** What the map draws: the chosen type when isolines are on and the product offers it, else null. */
  readonly shown: ReadonlySignal<IsolineType | null>;
  setOn(on: boolean): void;
  /** Chooses a type (and turns isolines on); false for one the product does not offer. */
  choose(type: IsolineType): boolean;
}

export function createIsolinesModel(layer: LayerModel, settings: SettingsStore, fromUrl: string | undefined): IsolinesModel {
  const on = settings.signal('isolinesOn') as ReadonlySignal<boolean>;
  const type = settings.signal('isolinesType') as ReadonlySignal<IsolineType>;
  if (isIsolineType(fromUrl)) {
    settings.set('isolinesType', fromUrl);
    settings.set('isolinesOn', true);
  }
  const offered = computed(() => productIsolines(layer.productDef.value));
  return {
    offered,
    on,
    type,
    shown: computed(() => (on.value && offered.value.includes(type.value) ? type.value : null)),
    setOn(value) {
      settings.set('isolinesOn', value);
    },
    choose(value) {
      if (!offered.peek().includes(value)) return false;
      settings.set('isolinesType', value);
      settings.set('isolinesOn', true);
      return true;
    },
  };
}
