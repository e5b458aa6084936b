import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';

/**
 * Which addresses a webhook may reach. Only public unicast: ipaddr.js keeps the IANA special-use
 * ranges (loopback, private, link-local, CGNAT, multicast, reserved, documentation, NAT64, 6to4,
 * Teredo...) so we do not maintain our own list. IPv6 must also sit in 2000::/3, the only block
 * allocated for global unicast, which shuts out oddities such as IPv4-compatible ::127.0.0.1.
 */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

export class EgressRefusedError extends Error {
  readonly code = 'EGRESS_REFUSED';
}

/** The reason `address` may not be reached, or null when it is a public unicast address. */
export function refusalFor(address: string): string | null {
  const literal = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!ipaddr.isValid(literal)) return `${address} is not an IP address`;
  let parsed = ipaddr.parse(literal);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  const range = parsed.range();
  if (range !== 'unicast') return `${literal} is in the ${range} range`;
  if (parsed.kind() === 'ipv6' && !(parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6))
    return `${literal} is not a global unicast address`;
  return null;
}

export const isIpLiteral = (host: string): boolean => ipaddr.isValid(host.replace(/^\[|\]$/g, ''));

/** Resolves a host name to every address it has (injectable so tests can play a rebinding DNS). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

/** The first refusal among `addresses`; a host with one non-public address is refused outright. */
export function refusalForAll(addresses: LookupAddress[]): string | null {
  for (const { address } of addresses) {
    const refusal = refusalFor(address);
    if (refusal) return refusal;
  }
  return null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).Agent: the check runs on the very addresses the socket is about to use,
 * at connect time, so a DNS answer that changed since the session was created (rebinding) still
 * cannot open a socket to a refused address.
 */
export function guardedLookup(resolver: Resolver = systemResolver) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void => {
    resolver(hostname).then(
      (all) => {
        const family =
          options.family === 4 || options.family === 'IPv4'
            ? 4
            : options.family === 6 || options.family === 'IPv6'
              ? 6
              : 0;
        const addresses = family ? all.filter((a) => a.family === family) : all;
        const refusal = refusalForAll(addresses);
        if (refusal) return callback(new EgressRefusedError(`egress refused: ${refusal}`), '');
        if (addresses.length === 0)
          return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
        if (options.all) return callback(null, addresses);
        return callback(null, addresses[0].address, addresses[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}
