/**
 * The webcams window's requests (common/api/webcams.ts): the list near a place and one webcam,
 * with the caller's token so their own webcams come too; a user's own webcam image, which needs
 * the token too (an <img> cannot send it); and the form's check, the one the server makes
 * (common/webcams.ts userWebcamProblem), turned into the field it is about.
 */

import { WEBCAM, WEBCAM_LIST, webcamDetailPath, webcamImagePath, webcamsListPath, type Webcam, type WebcamList } from '../../../common/api/webcams.ts';
import { userWebcamProblem, type UserWebcam } from '../../../common/webcams.ts';
import { fetchAnswer } from '../../http/fetchAnswer.ts';
import { HttpError } from '../../http/httpError.ts';

export function fetchWebcamsNearby(lat: number, lon: number, options: { limit?: number; lang: string; token: string | null; radiusKm?: number; signal?: AbortSignal }): Promise<WebcamList> {
  return fetchAnswer(WEBCAM_LIST, webcamsListPath(lat, lon, { limit: options.limit, lang: options.lang, radiusKm: options.radiusKm }), { signal: options.signal, token: options.token });
}

export function fetchWebcam(id: number, options: { lang: string; token: string | null; signal?: AbortSignal }): Promise<Webcam> {
  return fetchAnswer(WEBCAM, webcamDetailPath(id, options.lang), { signal: options.signal, token: options.token });
}

/**
 * A user's own webcam image through the server's relay, with their token; throws HttpError when it
 * is not relayed. Asked again each time (no-cache): its address can change under the same id, and
 * the browser would show the old image for the answer's max-age (the server's cache keeps it cheap).
 */
export async function fetchWebcamImage(id: number, options: { token: string | null; signal?: AbortSignal }): Promise<Blob> {
  const path = webcamImagePath(id);
  const headers = options.token ? { Authorization: `Bearer ${options.token}` } : undefined;
  const response = await fetch(path, { signal: options.signal, headers, cache: 'no-cache' });
  if (!response.ok) throw new HttpError(response.status, `Request failed for URL ${path}: HTTP ${response.status}`, await response.text().catch(() => ''));
  return response.blob();
}

export type WebcamField = 'title' | 'lat' | 'lon' | 'imageUrl' | 'pageUrl';

/** The form's values as typed. */
export interface WebcamForm {
  title: string;
  lat: string;
  lon: string;
  imageUrl: string;
  pageUrl: string;
}

/**
 * The webcam the form describes, or the first field that is wrong and why (the i18n key of
 * webcams:errors): the server's check, read per field.
 */
export function checkWebcamForm(form: WebcamForm): { webcam: UserWebcam } | { field: WebcamField; error: string } {
  const webcam: UserWebcam = {
    title: form.title.trim(),
    lat: form.lat.trim() === '' ? NaN : Number(form.lat),
    lon: form.lon.trim() === '' ? NaN : Number(form.lon),
    imageUrl: form.imageUrl.trim(),
    ...(form.pageUrl.trim() ? { pageUrl: form.pageUrl.trim() } : {}),
  };
  const problem = userWebcamProblem(webcam);
  if (!problem) return { webcam };
  const field = (['title', 'lat', 'lon', 'imageUrl', 'pageUrl'] as const).find((f) => problem.startsWith(f)) ?? 'title';
  const error = /empty/.test(problem) ? 'empty'
    : /too long|longer than/.test(problem) ? 'tooLong'
      : /out of range/.test(problem) ? 'range'
        : /https/.test(problem) ? 'https'
          : /user name or password/.test(problem) ? 'credentials'
            : 'address';
  return { field, error };
}
