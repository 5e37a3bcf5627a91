/**
 * The 'unlegal embed' notice (SPEC §2): the page runs inside a frame of another site, so instead
 * of the map it says so and links to the app on its own site. Loaded only in that case; plain DOM
 * (nothing else of the app starts).
 */

import { chooseLanguage, initI18n } from '../i18n.ts';

export async function showEmbedNotice(doc: Document = document): Promise<void> {
  const i18n = await initI18n(chooseLanguage(null, 'auto', navigator.languages ?? [navigator.language]));
  const box = doc.createElement('div');
  box.className = 'embed-notice';
  box.setAttribute('role', 'alert');
  box.dataset.testid = 'embed-notice';
  box.style.cssText = 'position:fixed;inset:0;display:grid;place-content:center;gap:12px;padding:24px;text-align:center;'
    + 'background:#0e1726;color:#f1f4f8;font:16px/1.4 system-ui,sans-serif';
  const title = doc.createElement('strong');
  title.style.fontSize = '20px';
  title.textContent = i18n.t('embed.title');
  const text = doc.createElement('p');
  text.style.margin = '0';
  text.textContent = i18n.t('embed.text', { name: i18n.t('app.name') });
  const link = doc.createElement('a');
  link.href = location.href;
  link.target = '_blank';
  link.rel = 'noopener';
  link.style.color = '#7fd1ff';
  link.textContent = i18n.t('embed.open', { name: i18n.t('app.name') });
  box.append(title, text, link);
  doc.body.append(box);
}
