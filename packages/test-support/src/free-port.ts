import { createServer, type AddressInfo } from 'node:net';

/**
 * A free loopback port, for a server whose URL must be known before it starts (an OAuth
 * redirect, a token's audience); anything else listens on port 0 and reads its own.
 */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
