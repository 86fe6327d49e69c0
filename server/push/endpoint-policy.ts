// Where the server may send a Web Push request (issue 17). A subscription's endpoint comes from the
// patient's device, so without a policy a patient could register any https address, one inside the
// hospital's network included, and the server would POST to it (server-side request forgery).
//
// Two checks, both needed:
// - the endpoint names a host of a real push service (an allowlist, PUSH_ENDPOINT_HOSTS), over https
//   on the standard port, without credentials and not as an IP literal;
// - every address that host resolves to is public unicast, checked when the connection is made (the
//   lookup of the agent the sender connects through), so a name whose answer changes between a check
//   and the request (DNS rebinding) is caught as well.
// The test peer of PUSH_ALLOW_INSECURE_ENDPOINTS (plain http on loopback) is the one exception.
import { lookup as dnsLookup, type LookupAddress, type LookupOneOptions, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent } from 'undici';

/**
 * The push services browsers subscribe through: Chrome, Edge on Android and Firebase (FCM), Firefox
 * (Mozilla autopush), Edge on Windows (WNS), Safari (Apple). A name matches itself and its subdomains.
 */
export const DEFAULT_PUSH_ENDPOINT_HOSTS = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  'push.services.mozilla.com',
  'notify.windows.com',
  'push.apple.com',
] as const;

export interface EndpointPolicy {
  /** Host names (and their subdomains) a subscription's endpoint may name. */
  hosts: readonly string[];
  /** Accept plain http to this machine: a push-service peer in tests (PUSH_ALLOW_INSECURE_ENDPOINTS). */
  allowInsecureLoopback: boolean;
}

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

/** The test peer: plain http on loopback, only when configured. */
export const isTestPeer = (url: URL, policy: EndpointPolicy): boolean =>
  policy.allowInsecureLoopback && url.protocol === 'http:' && LOOPBACK_HOSTS.includes(url.hostname);

/** A host name as written in PUSH_ENDPOINT_HOSTS: letters, digits, hyphens, dots. */
export const isHostName = (name: string): boolean => /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(name);

/** Why the server will not send to `endpoint`, or undefined when it may (the message names the field). */
export function endpointProblem(endpoint: string, policy: EndpointPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'token.endpoint must be an https URL';
  }
  if (isTestPeer(url, policy)) return undefined;
  if (url.protocol !== 'https:') return 'token.endpoint must be an https URL';
  if (url.username !== '' || url.password !== '') return 'token.endpoint must not carry a user name or password';
  if (url.port !== '') return 'token.endpoint must use the standard https port';
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (isIP(host.replace(/^\[|\]$/g, '')) !== 0) return 'token.endpoint must name a push service, not an IP address';
  if (!policy.hosts.some((h) => host === h || host.endsWith(`.${h}`)))
    return `token.endpoint must be an address of a push service (${policy.hosts.join(', ')})`;
  return undefined;
}

/**
 * Public unicast only: never loopback, private (RFC 1918, unique local), link-local, carrier-grade
 * NAT, multicast, unspecified, reserved or documentation ranges, nor an IPv6 form that carries one of
 * those (IPv4-mapped, 6to4, Teredo, NAT64): ipaddr.js names every such range.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

type LookupAll = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;
type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

const systemLookup: LookupAll = (hostname, options, callback) => dnsLookup(hostname, options, callback);

/**
 * A `dns.lookup` for sockets that fails when the name resolves to any address that is not public
 * (isPublicAddress). `resolve` stands in for the system's resolver in tests.
 */
export function publicOnlyLookup(resolve: LookupAll = systemLookup) {
  return (hostname: string, options: LookupOneOptions | LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const refused = addresses.find((a) => !isPublicAddress(a.address));
      const [first] = addresses;
      if (refused || !first) {
        const error: NodeJS.ErrnoException = new Error(`${hostname} resolves to ${refused?.address ?? 'no address'}, not a public address: refused`);
        error.code = 'EPUSHADDRESS';
        return callback(error, []);
      }
      if (options.all) return callback(null, addresses);
      return callback(null, first.address, first.family);
    });
  };
}

/** The agent Web Push requests go through: every connection's addresses are checked (publicOnlyLookup). */
export function publicOnlyAgent(resolve?: LookupAll): Agent {
  return new Agent({ connect: { lookup: publicOnlyLookup(resolve) } });
}

export type { LookupAll };
