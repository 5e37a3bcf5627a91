/**
 * The product picker (SPEC §4 product selection): the forecast models and samples this server
 * has data for, plus a file opened in the browser. Choosing one keeps the overlay where the
 * product has it (layerModel.setProduct) and loads its calendar (dataModel).
 */

import { useSignals } from '@preact/signals-react/runtime';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { LiveRunProgress } from '../../common/api/liveProgress.ts';
import { PRODUCTS } from '../../common/catalogue/products.ts';
import type { AppState } from '../state/appState.ts';
import { chooseProduct, layerNotice } from '../state/layerActions.ts';
import { liveRuns } from '../state/liveProgress.ts';

/** "GFS 12Z: 24 of 129 steps": the model, the run's hour (UTC) and its steps built. */
export function arrivingText(t: TFunction, run: LiveRunProgress): string {
  return t('product.arriving', { model: PRODUCTS[run.ident]?.modelName ?? run.ident, run: `${run.ref.slice(8, 10)}Z`, done: run.done, total: run.total });
}

export function ProductPicker({ app }: { app: AppState }) {
  useSignals();
  const { t } = useTranslation();
  const current = app.layer.product.value;
  const local = app.data.local.value;
  const notice = layerNotice.value;
  const served = app.data.served.value.map((p) => p.ident);
  const idents = [...new Set([...served, ...(PRODUCTS[current] ? [current] : [])])];
  const models = idents.filter((i) => !PRODUCTS[i].sample);
  const samples = idents.filter((i) => PRODUCTS[i].sample);
  const arriving = liveRuns.value;
  return (
    <label className="product-picker">
      <span className="sr-only">{t('product.title')}</span>
      <select
        value={current}
        data-testid="product-picker"
        title={t('product.title')}
        onChange={(e) => chooseProduct(app, e.currentTarget.value)}
      >
        {models.map((ident) => <option key={ident} value={ident}>{PRODUCTS[ident].modelName}</option>)}
        {samples.length > 0 && (
          <optgroup label={t('product.samples')}>
            {samples.map((ident) => <option key={ident} value={ident}>{PRODUCTS[ident].modelName}</option>)}
          </optgroup>
        )}
        {local && <option value={local.ident}>{local.modelName}</option>}
      </select>
      {arriving.length > 0 && (
        <span className="product-arriving" data-testid="product-arriving" role="status">
          {arriving.map((run) => arrivingText(t, run)).join(' · ')}
        </span>
      )}
      {notice && <span className="product-notice" role="alert" data-testid="product-notice">{t(notice.key, notice.values)}</span>}
    </label>
  );
}
