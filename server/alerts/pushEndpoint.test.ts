import { describe, expect, it } from 'vitest';
import {
  allowedOriginsFromEnv, checkPushEndpoint, nonPublicRange, pinnedLookup, PushEndpointError, type HostResolver, type ResolvedAddress,
} from './pushEndpoint.ts';

/** A resolver over a fixed table (no DNS is asked); unknown names do not resolve. */
function tableResolver(table: Record<string, string[]>): HostResolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string): Promise<ResolvedAddress[]> => {
    asked.push(hostname);
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { asked });
}

const resolver = tableResolver({
  'fcm.googleapis.com': ['142.250.74.10', '2a00:1450:4001:82b::200a'],
  'updates.push.services.mozilla.com': ['34.117.59.81'],
  'localhost': ['127.0.0.1', '::1'],
  'internal.example.com': ['10.1.2.3'],
  'metadata.example.com': ['169.254.169.254'],
  'v6-loopback.example.com': ['::1'],
  'mapped.example.com': ['::ffff:169.254.169.254'],
  'ula.example.com': ['fd00:ec2::254'],
  // One private address among public ones is enough to refuse: the connection could pick it.
  'mixed.example.com': ['34.117.59.81', '192.168.0.10'],
  'cgnat.example.com': ['100.64.0.1'],
  'zero.example.com': ['0.0.0.0'],
});

describe('push endpoint check (issue 12 §1.3: no server-side request forgery through Web Push)', () => {
  it.each([
    ['https://fcm.googleapis.com/fcm/send/abc:def', ['142.250.74.10', '2a00:1450:4001:82b::200a']],
    ['https://updates.push.services.mozilla.com/wpush/v2/gAAAA', ['34.117.59.81']],
    ['https://34.117.59.81/wpush', ['34.117.59.81']],
    ['https://[2a00:1450:4001:82b::200a]/push', ['2a00:1450:4001:82b::200a']],
    ['https://fcm.googleapis.com:8443/x', ['142.250.74.10', '2a00:1450:4001:82b::200a']],
  ])('accepts %s, to be reached at %j', async (endpoint, addresses) => {
    const checked = await checkPushEndpoint(endpoint, { resolve: resolver });
    expect(checked.url.href).toBe(new URL(endpoint).href);
    expect(checked.addresses.map((a) => a.address)).toEqual(addresses);
  });

  it.each([
    // scheme, credentials, not a URL
    ['http://fcm.googleapis.com/fcm/send/abc', 'must be an https URL'],
    ['ftp://fcm.googleapis.com/x', 'must be an https URL'],
    ['https://user:secret@fcm.googleapis.com/x', 'must not carry a user name or password'],
    ['not a url', 'is not a URL'],
    // IPv4 loopback in every spelling the URL parser accepts
    ['https://127.0.0.1:18999/push', 'address 127.0.0.1 is not public (loopback)'],
    ['https://127.1/push', 'address 127.0.0.1 is not public (loopback)'],
    ['https://2130706433/push', 'address 127.0.0.1 is not public (loopback)'],
    ['https://0x7f000001/push', 'address 127.0.0.1 is not public (loopback)'],
    ['https://0177.0.0.1/push', 'address 127.0.0.1 is not public (loopback)'],
    ['https://0x7f.1/push', 'address 127.0.0.1 is not public (loopback)'],
    // other special-purpose IPv4 ranges
    ['https://10.0.0.1/', 'address 10.0.0.1 is not public (private)'],
    ['https://172.16.5.4/', 'address 172.16.5.4 is not public (private)'],
    ['https://192.168.1.1/', 'address 192.168.1.1 is not public (private)'],
    ['https://169.254.169.254/latest/meta-data', 'address 169.254.169.254 is not public (linkLocal)'],
    ['https://100.64.0.1/', 'address 100.64.0.1 is not public (carrierGradeNat)'],
    ['https://0.0.0.0/', 'address 0.0.0.0 is not public (unspecified)'],
    ['https://0/', 'address 0.0.0.0 is not public (unspecified)'],
    ['https://224.0.0.1/', 'address 224.0.0.1 is not public (multicast)'],
    ['https://255.255.255.255/', 'address 255.255.255.255 is not public (broadcast)'],
    ['https://192.0.2.1/', 'address 192.0.2.1 is not public (reserved)'],
    ['https://198.18.0.1/', 'is not public'],
    // IPv6: loopback, unspecified, link-local, unique-local, IPv4-mapped and -embedding forms
    ['https://[::1]/push', 'address ::1 is not public (loopback)'],
    ['https://[0:0:0:0:0:0:0:1]/push', 'address ::1 is not public (loopback)'],
    ['https://[::]/push', 'address :: is not public (unspecified)'],
    ['https://[::ffff:127.0.0.1]/push', 'address ::ffff:7f00:1 is not public (loopback)'],
    ['https://[::ffff:a00:1]/push', 'address ::ffff:a00:1 is not public (private)'],
    ['https://[::ffff:169.254.169.254]/push', 'address ::ffff:a9fe:a9fe is not public (linkLocal)'],
    ['https://[::127.0.0.1]/push', 'address ::7f00:1 is not public (outside the global unicast block 2000::/3)'],
    ['https://[fe80::1]/push', 'address fe80::1 is not public (linkLocal)'],
    ['https://[fc00::1]/push', 'address fc00::1 is not public (uniqueLocal)'],
    ['https://[fd12:3456::1]/push', 'address fd12:3456::1 is not public (uniqueLocal)'],
    ['https://[fec0::1]/push', 'is not public'],
    ['https://[64:ff9b::7f00:1]/push', 'address 64:ff9b::7f00:1 is not public (rfc6052)'],
    ['https://[2002:7f00:1::]/push', 'address 2002:7f00:1:: is not public (6to4)'],
    ['https://[2001::1]/push', 'is not public'],
    ['https://[2001:db8::1]/push', 'address 2001:db8::1 is not public (reserved)'],
    ['https://[ff02::1]/push', 'address ff02::1 is not public (multicast)'],
    // names resolving to private addresses
    ['https://localhost:18999/push', 'host localhost resolves to 127.0.0.1, which is not public (loopback)'],
    ['https://internal.example.com/push', 'host internal.example.com resolves to 10.1.2.3, which is not public (private)'],
    ['https://metadata.example.com/', 'resolves to 169.254.169.254, which is not public (linkLocal)'],
    ['https://v6-loopback.example.com/', 'resolves to ::1, which is not public (loopback)'],
    ['https://mapped.example.com/', 'resolves to ::ffff:169.254.169.254, which is not public (linkLocal)'],
    ['https://ula.example.com/', 'resolves to fd00:ec2::254, which is not public (uniqueLocal)'],
    ['https://mixed.example.com/', 'resolves to 192.168.0.10, which is not public (private)'],
    ['https://cgnat.example.com/', 'resolves to 100.64.0.1, which is not public (carrierGradeNat)'],
    ['https://zero.example.com/', 'resolves to 0.0.0.0, which is not public (unspecified)'],
    ['https://nowhere.example.com/', 'host nowhere.example.com cannot be resolved'],
  ])('refuses %s: %s', async (endpoint, reason) => {
    const refused = await checkPushEndpoint(endpoint, { resolve: resolver }).then(() => null, (error: unknown) => error);
    expect(refused).toBeInstanceOf(PushEndpointError);
    expect((refused as Error).message).toContain(reason);
  });

  it('an allowed origin (a test\'s local push service) passes as it is, and only that exact origin', async () => {
    const allowedOrigins = ['http://127.0.0.1:9093'];
    expect((await checkPushEndpoint('http://127.0.0.1:9093/push/1', { resolve: resolver, allowedOrigins })).addresses).toEqual([{ address: '127.0.0.1', family: 4 }]);
    for (const other of ['http://127.0.0.1:9094/push/1', 'https://127.0.0.1:9093/push/1', 'http://localhost:9093/push/1']) {
      await expect(checkPushEndpoint(other, { resolve: resolver, allowedOrigins })).rejects.toBeInstanceOf(PushEndpointError);
    }
  });

  it('reads ISOBAR_PUSH_ALLOW_ORIGINS as exact origins and refuses anything else at start-up', () => {
    expect(allowedOriginsFromEnv({})).toEqual([]);
    expect(allowedOriginsFromEnv({ ISOBAR_PUSH_ALLOW_ORIGINS: ' ' })).toEqual([]);
    expect(allowedOriginsFromEnv({ ISOBAR_PUSH_ALLOW_ORIGINS: 'http://127.0.0.1:9093, https://push.test' })).toEqual(['http://127.0.0.1:9093', 'https://push.test']);
    for (const bad of ['http://127.0.0.1:9093/push', '127.0.0.1:9093', 'http://127.0.0.1:9093/', 'file:///tmp', '*']) {
      expect(() => allowedOriginsFromEnv({ ISOBAR_PUSH_ALLOW_ORIGINS: bad }), bad).toThrow(/ISOBAR_PUSH_ALLOW_ORIGINS: .* is not an origin/);
    }
    // The webcams' allow-list is read the same way, from its own variable.
    const webcams = { ISOBAR_PUSH_ALLOW_ORIGINS: 'https://push.test', ISOBAR_WEBCAMS_ALLOW_ORIGINS: 'https://127.0.0.1:9443' };
    expect(allowedOriginsFromEnv(webcams, 'ISOBAR_WEBCAMS_ALLOW_ORIGINS')).toEqual(['https://127.0.0.1:9443']);
    expect(() => allowedOriginsFromEnv({ ISOBAR_WEBCAMS_ALLOW_ORIGINS: '*' }, 'ISOBAR_WEBCAMS_ALLOW_ORIGINS')).toThrow(/ISOBAR_WEBCAMS_ALLOW_ORIGINS: "\*" is not an origin/);
  });

  it('classifies addresses as written by a resolver', () => {
    expect(nonPublicRange('142.250.74.10')).toBeNull();
    expect(nonPublicRange('2a00:1450:4001:82b::200a')).toBeNull();
    expect(nonPublicRange('::ffff:142.250.74.10')).toBeNull();
    expect(nonPublicRange('fe80::1%eth0')).toBe('linkLocal');
    expect(nonPublicRange('push.example.com')).toBe('not an IP address');
  });

  it('the pinned lookup answers only the checked addresses, whatever name it is asked', () => {
    const lookup = pinnedLookup([{ address: '34.117.59.81', family: 4 }, { address: '2a00:1450:4001:82b::200a', family: 6 }]);
    const answers: unknown[] = [];
    lookup('elsewhere.example.com', { all: true }, (error, address) => answers.push([error, address]));
    lookup('elsewhere.example.com', {}, (error, address, family) => answers.push([error, address, family]));
    lookup('elsewhere.example.com', { family: 6 }, (error, address, family) => answers.push([error, address, family]));
    expect(answers).toEqual([
      [null, [{ address: '34.117.59.81', family: 4 }, { address: '2a00:1450:4001:82b::200a', family: 6 }]],
      [null, '34.117.59.81', 4],
      [null, '2a00:1450:4001:82b::200a', 6],
    ]);
    const none: unknown[] = [];
    pinnedLookup([{ address: '34.117.59.81', family: 4 }])('x', { family: 6 }, (error) => none.push((error as NodeJS.ErrnoException).code));
    expect(none).toEqual(['ENOTFOUND']);
  });
});
