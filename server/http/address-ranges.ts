// Address ranges as an operator writes them ("10.0.0.0/8, 127.0.0.1, ::1"), and whether a client's
// address falls in one (METRICS_ALLOW).
import ipaddr from 'ipaddr.js';

export type AddressRange = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** The ranges of a comma-separated list, and the entries that are not addresses or ranges. */
export function parseAllowList(text: string): { ranges: AddressRange[]; bad: string[] } {
  const ranges: AddressRange[] = [];
  const bad: string[] = [];
  for (const entry of text
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '')) {
    try {
      if (entry.includes('/')) ranges.push(ipaddr.parseCIDR(entry));
      else {
        const ip = ipaddr.parse(entry);
        ranges.push([ip, ip.kind() === 'ipv4' ? 32 : 128]);
      }
    } catch {
      bad.push(entry);
    }
  }
  return { ranges, bad };
}

/** Whether `address` (as Fastify reports it, IPv4-mapped IPv6 included) is in one of the ranges. */
export function addressAllowed(address: string, ranges: readonly AddressRange[]): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address);
  return ranges.some(([range, bits]) => ip.kind() === range.kind() && ip.match(range, bits));
}
