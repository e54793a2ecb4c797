import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import type * as IpAddress from 'ipaddr.js';

// ipaddr.js is CommonJS with `export =`, which this project's module settings cannot
// default-import; require gives the same object.
const ipaddr = createRequire(import.meta.url)('ipaddr.js') as typeof IpAddress;
type IPv4 = IpAddress.IPv4;
type IPv6 = IpAddress.IPv6;

/**
 * Whether an address is one a URL that others chose must never reach: anything ipaddr.js does not
 * classify as plain unicast (loopback, private, link-local and cloud metadata, carrier-grade NAT,
 * multicast, documentation, benchmarking, reserved, site-local, unique-local…), and every IPv6
 * form that carries an IPv4 address whose embedded address is one of those. Not an address at
 * all counts as private: refuse rather than guess.
 */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !isPublicIPv4(ipaddr.IPv4.parse(address));
  if (family === 6) return !isPublicIPv6(ipaddr.IPv6.parse(hexGroups(address)));
  return true;
}

// ipaddr.js reads the deprecated "::a.b.c.d" as IPv4-mapped (::ffff:a.b.c.d). The WHATWG URL
// parser writes every IPv6 address in hex groups, so what gets classified is what the OS dials.
// A zone id only picks the interface of a link-local address, which stays link-local without it.
function hexGroups(address: string): string {
  return new URL(`http://[${address.replace(/%.*$/, '')}]/`).hostname.slice(1, -1);
}

function isPublicIPv4(address: IPv4): boolean {
  return address.range() === 'unicast';
}

function isPublicIPv6(address: IPv6): boolean {
  // ipaddr.js's IPv6 ranges name more than its typings list (deprecatedSiteLocal, discard…).
  const range: string = address.range();
  const { parts } = address;
  switch (range) {
    // An IPv4 address written as IPv6: it is exactly as public as that address.
    case 'ipv4Mapped':
      return isPublicIPv4(address.toIPv4Address());
    // The well-known NAT64 prefix 64:ff9b::/96 reaches the IPv4 address in its last 32 bits.
    // Its local-use sibling 64:ff9b:1::/48 (RFC 8215) is the operator's own translator, with the
    // address at a position the operator chose: never public.
    case 'rfc6052':
      return parts[2] === 0 && isPublicIPv4(embedded(parts[6]!, parts[7]!));
    // 6to4 (RFC 3056): the relay's IPv4 address sits in bits 16-47.
    case '6to4':
      return isPublicIPv4(embedded(parts[1]!, parts[2]!));
    // Teredo (RFC 4380): the server's address in bits 32-63, the client's inverted in the last 32.
    case 'teredo':
      return (
        isPublicIPv4(embedded(parts[2]!, parts[3]!)) &&
        isPublicIPv4(embedded(~parts[6]! & 0xffff, ~parts[7]! & 0xffff))
      );
    case 'unicast':
      // IPv4-compatible addresses (::a.b.c.d, deprecated by RFC 4291) are a spelling of an IPv4
      // address with no public use; whatever they embed, refuse them. Past that, only the
      // global unicast space IANA allocates (2000::/3) is public.
      if (parts.slice(0, 6).every((part) => part === 0)) return false;
      return (parts[0]! & 0xe000) === 0x2000;
    default:
      return false;
  }
}

function embedded(high: number, low: number): IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}
