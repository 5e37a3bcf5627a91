import { describe, expect, it } from 'vitest';
import { checkWebcamForm, type WebcamForm } from './webcamsApi.ts';

const good: WebcamForm = { title: ' Garden ', lat: '50.09', lon: '14.43', imageUrl: 'https://cams.example.org/g.jpg', pageUrl: '' };

describe('the webcam form', () => {
  it('gives the webcam the server stores', () => {
    expect(checkWebcamForm(good)).toEqual({ webcam: { title: 'Garden', lat: 50.09, lon: 14.43, imageUrl: 'https://cams.example.org/g.jpg' } });
    expect(checkWebcamForm({ ...good, pageUrl: 'https://cams.example.org/' })).toMatchObject({ webcam: { pageUrl: 'https://cams.example.org/' } });
  });

  it.each([
    [{ title: '  ' }, 'title', 'empty'],
    [{ title: 'x'.repeat(121) }, 'title', 'tooLong'],
    [{ lat: '' }, 'lat', 'range'],
    [{ lat: '91' }, 'lat', 'range'],
    [{ lon: 'east' }, 'lon', 'range'],
    [{ imageUrl: '' }, 'imageUrl', 'empty'],
    [{ imageUrl: 'http://cams.example.org/g.jpg' }, 'imageUrl', 'https'],
    [{ imageUrl: 'https://a:b@cams.example.org/g.jpg' }, 'imageUrl', 'credentials'],
    [{ imageUrl: 'not an address' }, 'imageUrl', 'address'],
    [{ pageUrl: 'ftp://cams.example.org/' }, 'pageUrl', 'https'],
  ] as const)('%o: field %s, %s', (change, field, error) => {
    expect(checkWebcamForm({ ...good, ...change })).toEqual({ field, error });
  });
});
