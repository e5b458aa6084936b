import { LookupAddress } from 'node:dns';
import { EgressRefusedError, guardedLookup, refusalFor } from './egress-guard';

describe('refusalFor (webhook egress ranges)', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['224.0.0.251', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.10', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['64:ff9b::7f00:1', 'rfc6052'],
    ['2001:db8::1', 'reserved'],
  ])('refuses %s (%s)', (address, range) => {
    expect(refusalFor(address)).toContain(range);
  });

  it.each(['8.8.8.8', '93.184.216.34', '::ffff:8.8.8.8', '2606:4700:4700::1111'])(
    'allows the public address %s',
    (address) => {
      expect(refusalFor(address)).toBeNull();
    },
  );

  it('refuses IPv6 outside global unicast even when no special range names it', () => {
    expect(refusalFor('4000::1')).toContain('not a global unicast');
  });
});

describe('guardedLookup (connect-time check)', () => {
  const resolveTo =
    (...addresses: LookupAddress[]) =>
    () =>
      Promise.resolve(addresses);
  const lookup = (resolver: () => Promise<LookupAddress[]>, all: boolean) =>
    new Promise<{ err: Error | null; result: unknown }>((resolve) =>
      guardedLookup(resolver)('hooks.example', { all }, (err, address, family) =>
        resolve({ err, result: all ? address : [address, family] }),
      ),
    );

  it('hands public addresses to the socket in both callback shapes', async () => {
    const resolver = resolveTo({ address: '93.184.216.34', family: 4 });
    expect(await lookup(resolver, false)).toEqual({ err: null, result: ['93.184.216.34', 4] });
    expect(await lookup(resolver, true)).toEqual({
      err: null,
      result: [{ address: '93.184.216.34', family: 4 }],
    });
  });

  it('refuses a name with any non-public address, so a rebinding answer never reaches connect()', async () => {
    const { err } = await lookup(
      resolveTo({ address: '93.184.216.34', family: 4 }, { address: '127.0.0.1', family: 4 }),
      true,
    );
    expect(err).toBeInstanceOf(EgressRefusedError);
    expect(err?.message).toContain('127.0.0.1');
  });
});
