/**
 * Adding, changing and removing one's own webcams (SPEC §2 /webcams/add, /webcams/edit/{id},
 * /webcams/remove/{id}): a form of title, position, image address and optional page address,
 * checked as the server checks it (webcamsApi.ts checkWebcamForm, common/webcams.ts), saved to the
 * account's collection 'webcams' (ui/account/account.ts). Logged out, the window asks to log in.
 * The server may still refuse an address (a host that is not public): its reason is shown.
 */

import './webcams.css';
import { useEffect, useState, type FormEvent } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { WEBCAM_TITLE_MAX_LENGTH, WEBCAM_URL_MAX_LENGTH, type UserWebcam } from '../../../common/webcams.ts';
import { COORD_DECIMALS } from '../../../common/url.ts';
import { HttpError, jsonMessage } from '../../http/httpError.ts';
import { useAccount } from '../../services/ServicesContext.tsx';
import { PanelFrame } from '../PanelFrame.tsx';
import type { PanelProps } from '../registry.ts';
import { useSettledCentre } from '../useSettledCentre.ts';
import { checkWebcamForm, type WebcamField, type WebcamForm } from './webcamsApi.ts';

type Mode = 'add' | 'edit' | 'remove';

function useOwnWebcam(id: number | null) {
  const account = useAccount();
  const loggedIn = !!account?.session.loggedIn.value;
  const [synced, setSynced] = useState(false);
  useEffect(() => {
    if (!account || !loggedIn) return;
    // The latest list: another browser may have changed it.
    void account.webcams.sync().catch(() => undefined).finally(() => setSynced(true));
  }, [account, loggedIn]);
  const item = id === null ? undefined : account?.webcams.items.value.find((i) => i.value.webcamId === id);
  return { account, loggedIn, item, synced };
}

function LoginFirst({ app }: { app: PanelProps['app'] }) {
  const { t } = useTranslation('webcams');
  return (
    <div className="webcams-form">
      <p className="webcams-message" data-testid="webcams-login-first">{t('loginToAdd')}</p>
      <button type="button" className="webcams-button" onClick={() => void app.router.navigate('/login')}>{t('login')}</button>
    </div>
  );
}

function WebcamFormPanel({ app, params, close, mode }: PanelProps & { mode: Mode }) {
  useSignals();
  const { t } = useTranslation('webcams');
  const id = typeof params.id === 'number' ? params.id : null;
  const { account, loggedIn, item, synced } = useOwnWebcam(id);
  // A new webcam starts at the map's centre, once the map stands where it opened.
  const centre = useSettledCentre(app);
  const title = t(mode === 'add' ? 'addTitle' : mode === 'edit' ? 'editTitle' : 'removeTitle');
  let body;
  if (!account || (mode === 'add' && !centre)) body = <p className="webcams-message" role="status">{t('loading')}</p>;
  else if (!loggedIn) body = <LoginFirst app={app} />;
  else if (mode !== 'add' && !item) {
    body = synced
      ? <p className="webcams-message error" role="alert" data-testid="webcam-not-found">{t('notFound', { id: params.id })}</p>
      : <p className="webcams-message" role="status">{t('loading')}</p>;
  } else if (mode === 'remove') body = <RemoveWebcam app={app} itemId={item!.id} webcam={item!.value} />;
  else body = <EditWebcam app={app} itemId={item?.id ?? null} webcam={item?.value ?? null} centre={centre ?? app.map.view.peek()} key={item?.id ?? 'new'} />;
  return <PanelFrame title={title} close={close} className="webcams">{body}</PanelFrame>;
}

function EditWebcam({ app, itemId, webcam, centre }: { app: PanelProps['app']; itemId: string | null; webcam: UserWebcam | null; centre: { lat: number; lon: number } }) {
  const { t } = useTranslation('webcams');
  const account = useAccount()!;
  const [form, setForm] = useState<WebcamForm>(() => ({
    title: webcam?.title ?? '',
    lat: (webcam?.lat ?? centre.lat).toFixed(COORD_DECIMALS + 1),
    lon: (webcam?.lon ?? ((((centre.lon + 180) % 360) + 360) % 360) - 180).toFixed(COORD_DECIMALS + 1),
    imageUrl: webcam?.imageUrl ?? '',
    pageUrl: webcam?.pageUrl ?? '',
  }));
  const [invalid, setInvalid] = useState<{ field: WebcamField; error: string } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const checked = checkWebcamForm(form);
    if ('field' in checked) {
      setInvalid(checked);
      return;
    }
    setInvalid(null);
    setFailure(null);
    setBusy(true);
    try {
      const saved = itemId
        ? await account.webcams.update(itemId, { ...checked.webcam, webcamId: webcam?.webcamId })
        : await account.webcams.add(checked.webcam);
      const webcamId = saved.value.webcamId ?? webcam?.webcamId;
      if (webcamId !== undefined) void app.router.navigate(`/webcams/${webcamId}`);
    } catch (error) {
      const said = error instanceof HttpError ? jsonMessage(error.responseText) : null;
      setFailure(said ? t('saveRefused', { reason: said }) : t('saveError'));
    } finally {
      setBusy(false);
    }
  };

  const field = (name: WebcamField, label: string, props: Record<string, unknown> = {}) => (
    <label className="webcams-field">
      <span>{label}</span>
      <input name={name} value={form[name]} data-testid={`webcam-${name}`} aria-invalid={invalid?.field === name}
        onChange={(e) => setForm({ ...form, [name]: e.target.value })} {...props} />
      {invalid?.field === name && <small className="webcams-field-error" data-testid="webcam-field-error">{t(`errors.${invalid.error}`)}</small>}
    </label>
  );
  return (
    <form className="webcams-form" data-testid="webcam-form" onSubmit={(e) => void submit(e)} noValidate>
      {field('title', t('fields.title'), { maxLength: WEBCAM_TITLE_MAX_LENGTH })}
      <div className="webcams-pair">
        {field('lat', t('fields.lat'), { inputMode: 'decimal' })}
        {field('lon', t('fields.lon'), { inputMode: 'decimal' })}
      </div>
      {field('imageUrl', t('fields.imageUrl'), { type: 'url', placeholder: 'https://', maxLength: WEBCAM_URL_MAX_LENGTH })}
      {field('pageUrl', t('fields.pageUrl'), { type: 'url', placeholder: 'https://', maxLength: WEBCAM_URL_MAX_LENGTH })}
      <p className="webcams-note">{t('privacy')}</p>
      {failure && <p className="webcams-message error" role="alert" data-testid="webcam-save-error">{failure}</p>}
      <button type="submit" className="webcams-button primary" disabled={busy} data-testid="webcam-save">{t('save')}</button>
    </form>
  );
}

function RemoveWebcam({ app, itemId, webcam }: { app: PanelProps['app']; itemId: string; webcam: UserWebcam }) {
  const { t } = useTranslation('webcams');
  const account = useAccount()!;
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState(false);
  const remove = async () => {
    setBusy(true);
    try {
      await account.webcams.remove(itemId);
      void app.router.navigate('/webcams');
    } catch {
      setFailure(true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="webcams-form">
      <p data-testid="webcam-remove-question">{t('removeQuestion', { title: webcam.title })}</p>
      {failure && <p className="webcams-message error" role="alert">{t('saveError')}</p>}
      <div className="webcams-actions">
        <button type="button" className="webcams-button danger" disabled={busy} data-testid="webcam-remove-confirm" onClick={() => void remove()}>{t('remove')}</button>
        <button type="button" className="webcams-button" onClick={() => void app.router.navigate(`/webcams/${webcam.webcamId}`)}>{t('cancel')}</button>
      </div>
    </div>
  );
}

export const WebcamAddPanel = (props: PanelProps) => <WebcamFormPanel {...props} mode="add" />;
export const WebcamEditPanel = (props: PanelProps) => <WebcamFormPanel {...props} mode="edit" />;
export const WebcamRemovePanel = (props: PanelProps) => <WebcamFormPanel {...props} mode="remove" />;
