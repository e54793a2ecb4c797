import { describe, expect, it } from 'vitest';
import { parseServerConfig } from '@mcp-agent/core';
import {
  MULTI_TENANT_POLICY,
  checkUserServer,
} from '../../store/availability/user-server-policy.js';
import { checkedLookup, guardedFetch } from './guarded-fetch.js';
import { isPrivateAddress } from '../../store/availability/private-address.js';

// The forms an outside probe found allowed, each with what it hides.
const probed = [
  '::127.0.0.1', // IPv4-compatible (deprecated) spelling of loopback
  '::7f00:1', // the same, in hex groups
  '::8.8.8.8', // IPv4-compatible, whatever it embeds
  '64:ff9b:1::7f00:1', // local-use NAT64 (RFC 8215)
  '64:ff9b:1:5db8:d822::', // local-use NAT64 embedding a public address: still the operator's own
  '2002:7f00:1::1', // 6to4 of 127.0.0.1
  '2002:c0a8:101::1', // 6to4 of 192.168.1.1
  '2002:a9fe:a9fe::', // 6to4 of 169.254.169.254 (cloud metadata)
  '2002:a00:1::', // 6to4 of 10.0.0.1
  'fec0::1', // site-local (deprecated)
  'feff::1',
  '::ffff:0:7f00:1', // IPv4-translated (RFC 6145) ::ffff:0:0:0/96
  '::ffff:0:5db8:d822',
  '192.88.99.1', // the 6to4 relay anycast
  '192.88.99.255',
];

// What the hand list caught already, which must stay caught.
const known = [
  '0.0.0.0',
  '10.1.2.3',
  '100.64.0.1',
  '127.0.0.1',
  '127.255.255.254',
  '169.254.169.254',
  '172.16.0.1',
  '172.31.255.255',
  '192.0.0.8',
  '192.0.2.1',
  '192.168.1.1',
  '198.18.0.1',
  '198.51.100.7',
  '203.0.113.9',
  '224.0.0.1',
  '240.0.0.1',
  '255.255.255.255',
  '::',
  '::1',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::ffff:10.0.0.1',
  '::ffff:169.254.169.254',
  '64:ff9b::7f00:1', // NAT64 of loopback
  '64:ff9b::a9fe:a9fe', // NAT64 of cloud metadata
  '100::1',
  '2001:db8::1',
  'fc00::1',
  'fd12:3456::1',
  'fe80::1',
  'fe80::1%eth0',
  'ff02::1',
  // Teredo: a private server, or a client (stored inverted) at loopback.
  '2001:0:a00:1:8000:63bf:a247:27dd',
  '2001:0:4136:e378:8000:63bf:80ff:fffe',
  '2001:2::1', // benchmarking
  '3fff::1', // documentation (RFC 9637)
  '4000::1', // outside the global unicast space 2000::/3
  'localhost', // not an address: refused rather than guessed
  '',
];

const publicAddresses = [
  '93.184.216.34',
  '8.8.8.8',
  '2606:2800:220:1::1',
  '2a00:1450:4001:80e::200e',
  '::ffff:93.184.216.34', // IPv4-mapped: as public as the address it carries
  '64:ff9b::5db8:d822', // what DNS64 answers for a public IPv4-only host
  '2002:5db8:d822::1', // 6to4 of a public address
  '2001:0:4136:e378:8000:63bf:a247:27dd', // Teredo: public server, client 93.184.216.34
];

describe('private address classification', () => {
  it('NET-01 every probed SSRF form is non-public, the known ones stay so, public ones pass', () => {
    for (const address of [...probed, ...known])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of publicAddresses) expect(isPrivateAddress(address), address).toBe(false);
  });

  it('NET-01 a tenant server at a probed literal address is refused when added', () => {
    for (const address of probed.filter((a) => a.includes(':'))) {
      const server = parseServerConfig({
        id: 's',
        transport: 'auto',
        url: `https://[${address}]/mcp`,
      });
      expect(() => checkUserServer(MULTI_TENANT_POLICY, server), address).toThrow(
        /private or reserved address/,
      );
    }
    const relay = parseServerConfig({ id: 's', transport: 'auto', url: 'https://192.88.99.1/mcp' });
    expect(() => checkUserServer(MULTI_TENANT_POLICY, relay)).toThrow(/private or reserved/);
  });

  it('NET-01 a name that resolves to a probed form is refused at the check and again at connect (rebinding)', async () => {
    for (const address of probed) {
      const send = guardedFetch({
        fetch: () => Promise.reject(new Error('must not be sent')),
        resolve: async () => ['93.184.216.34', address],
      });
      await expect(send('https://probe.example/'), address).rejects.toThrow(/private or reserved/);
    }
    // Public at the check, a NAT64 spelling of loopback at the connect.
    const answers = [['93.184.216.34'], ['64:ff9b:1::7f00:1']];
    const send = guardedFetch({ resolve: async () => answers.shift() ?? ['::127.0.0.1'] });
    await expect(send('https://rebinding.example/')).rejects.toThrow(
      /rebinding\.example resolved to a private or reserved address when connecting/,
    );
    const lookup = checkedLookup(async () => ['2002:a9fe:a9fe::']);
    const refused = await new Promise<Error | null>((resolve) =>
      lookup('metadata.example', {}, (error) => resolve(error)),
    );
    expect(refused?.message).toMatch(/private or reserved/);
  });
});
