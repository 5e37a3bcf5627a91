import { describe, expect, it, vi } from 'vitest';
import { HttpError } from '../http/httpError.ts';
import { createAccountRequest, isAccountPath, serverMessage } from './request.ts';

const answer = (status: number, body?: string) => new Response(status === 204 || status === 304 ? null : body ?? '', { status });

describe('account requests (SPEC §7 request layer, §8 HTTP failure)', () => {
  it.each([
    ['/users/v1/login', true],
    ['/users/settings?storeTs=0', true],
    ['/users/v1/data/favs', true],
    ['/api/info', true],
    ['/api/logout', true],
    ['/notif/v1/notifications', true],
    ['/forecast/point/ecmwf/v2.9/50.000/14.000', false],
    ['/tiles/v1.0/demo/x', false],
    ['/usersettings', false],
    ['https://evil.example/users/v1/login', false],
    ['//evil.example/users/v1/login', false],
  ])('%s carries the bearer token: %s', (path, yes) => {
    expect(isAccountPath(path)).toBe(yes);
  });

  it('sends the bearer header and credentials on account paths only', async () => {
    const fetch = vi.fn(async () => answer(200, '{"ok":true}'));
    const request = createAccountRequest({ token: () => 'secret', fetch });
    await request('GET', '/api/info');
    await request('GET', '/forecast/point/ecmwf/v2.9/1.0/2.0');
    const [[, onAccount], [, onData]] = fetch.mock.calls as unknown as [string, RequestInit][];
    expect((onAccount.headers as Record<string, string>).Authorization).toBe('Bearer secret');
    expect(onAccount.credentials).toBe('include');
    expect((onData.headers as Record<string, string>).Authorization).toBeUndefined();
    expect(onData.credentials).toBeUndefined();
  });

  it('no token: no bearer header', async () => {
    const fetch = vi.fn(async () => answer(200, '{}'));
    await createAccountRequest({ token: () => null, fetch })('GET', '/api/info');
    expect(((fetch.mock.calls[0] as unknown as [string, RequestInit])[1].headers as Record<string, string>).Authorization).toBeUndefined();
  });

  it('a JSON body for POST and PUT, none for GET', async () => {
    const fetch = vi.fn(async () => answer(200, '{"id":"1"}'));
    const request = createAccountRequest({ token: () => 't', fetch });
    await request('POST', '/users/v1/data/favs', { title: 'A' });
    await request('GET', '/users/v1/data/favs', { ignored: true });
    const [[, post], [, get]] = fetch.mock.calls as unknown as [string, RequestInit][];
    expect(post.body).toBe('{"title":"A"}');
    expect((post.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(get.body).toBeUndefined();
  });

  it.each([304, 204])('%i counts as success without data', async (status) => {
    const request = createAccountRequest({ token: () => 't', fetch: async () => answer(status) });
    await expect(request('GET', '/users/settings?storeTs=5')).resolves.toMatchObject({ status, data: null });
  });

  it('a failed answer throws with status, message and body', async () => {
    const request = createAccountRequest({ token: () => 't', fetch: async () => answer(401, '{"message":"Wrong email or password"}') });
    const error = await request('POST', '/users/v1/login', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 401, message: 'Request failed for URL /users/v1/login' });
    expect(serverMessage(error)).toBe('Wrong email or password');
  });

  it('a network failure is status 0 and is reported for the connection probe', async () => {
    const onNetworkFailure = vi.fn();
    const request = createAccountRequest({ token: () => 't', fetch: async () => { throw new TypeError('Failed to fetch'); }, onNetworkFailure });
    await expect(request('GET', '/api/info')).rejects.toMatchObject({ status: 0 });
    expect(onNetworkFailure).toHaveBeenCalledWith(expect.any(TypeError), '/api/info');
  });
});
