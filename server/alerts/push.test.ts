import { createECDH, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { webPushSender, type WebPushOptions } from './push.ts';
import { PushEndpointError, type ResolvedAddress } from './pushEndpoint.ts';

interface Hit { url: string; headers: IncomingHttpHeaders }

/** A local HTTP server: answers `status` (with `headers`) and records what reached it. */
async function localServer(status = 201, headers: Record<string, string> = {}): Promise<{ server: Server; origin: string; port: number; hits: Hit[] }> {
  const hits: Hit[] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      hits.push({ url: request.url ?? '', headers: request.headers });
      response.writeHead(status, headers).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}`, port, hits };
}

function subscription(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') } };
}

describe('Web Push sender: where its requests go (issue 12 §1.3)', () => {
  const servers: Server[] = [];
  let dir = '';
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  const serve = async (status?: number, headers?: Record<string, string>) => {
    const s = await localServer(status, headers);
    servers.push(s.server);
    return s;
  };
  const sender = async (options: WebPushOptions) => {
    dir = await mkdtemp(join(tmpdir(), 'isobar-push-'));
    return webPushSender(join(dir, 'vapid.json'), { env: {}, ...options });
  };

  it('sends nothing to a loopback http endpoint (the review\'s reproduction)', async () => {
    const target = await serve();
    const push = await sender({});
    await expect(push.send(subscription(`${target.origin}/push`), '{}')).rejects.toBeInstanceOf(PushEndpointError);
    await expect(push.checkEndpoint(`${target.origin}/push`)).rejects.toThrow('must be an https URL');
    expect(target.hits).toEqual([]);
  });

  it('checks the name again at send time: a name that now resolves to loopback gets no request', async () => {
    const answers: ResolvedAddress[][] = [[{ address: '34.117.59.81', family: 4 }], [{ address: '127.0.0.1', family: 4 }]];
    const asked: string[] = [];
    const push = await sender({
      resolve: async (host) => {
        asked.push(host);
        return answers.shift() ?? [];
      },
    });
    await push.checkEndpoint('https://push.example.com/w/1');
    await expect(push.send(subscription('https://push.example.com/w/1'), '{}')).rejects.toThrow('resolves to 127.0.0.1, which is not public (loopback)');
    expect(asked).toEqual(['push.example.com', 'push.example.com']);
  });

  it('connects to the address the check resolved, not to a fresh DNS answer', async () => {
    // push.invalid never resolves in DNS (RFC 6761): the request can only arrive through the checked answer.
    const target = await serve();
    const origin = `http://push.invalid:${target.port}`;
    const push = await sender({ allowedOrigins: [origin], resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    expect(await push.send(subscription(`${origin}/push/7`), '{"a":1}')).toBe(201);
    expect(target.hits).toHaveLength(1);
    expect(target.hits[0].url).toBe('/push/7');
    expect(target.hits[0].headers.host).toBe(`push.invalid:${target.port}`);
    expect(target.hits[0].headers['content-encoding']).toBe('aes128gcm');
  });

  it('does not follow a redirect: the 3xx is the answer, and its target gets nothing', async () => {
    const inside = await serve();
    const redirecting = await serve(307, { location: `${inside.origin}/internal` });
    const push = await sender({ allowedOrigins: [redirecting.origin] });
    expect(await push.send(subscription(`${redirecting.origin}/push`), '{}')).toBe(307);
    expect(redirecting.hits).toHaveLength(1);
    expect(inside.hits).toEqual([]);
  });
});
