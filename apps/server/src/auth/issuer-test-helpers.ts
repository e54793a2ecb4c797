import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';

/**
 * An identity provider on loopback: OpenID Connect discovery and a JWKS whose keys a test
 * rotates, counting every JWKS fetch, with the `Cache-Control` it is told to send.
 */
export interface TestIssuer {
  readonly url: string;
  readonly fetches: { jwks: number; metadata: number };
  /** The keys the JWKS publishes now. */
  published: JWK[];
  /** The JWKS's `Cache-Control` header; none when undefined. */
  cacheControl: string | undefined;
  close(): Promise<void>;
}

/** Starts a {@link TestIssuer} on an ephemeral loopback port. */
export async function startIssuer(): Promise<TestIssuer> {
  const issuer = {
    url: '',
    fetches: { jwks: 0, metadata: 0 },
    published: [] as JWK[],
    cacheControl: undefined as string | undefined,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') {
      issuer.fetches.metadata += 1;
      res.end(JSON.stringify({ issuer: issuer.url, jwks_uri: `${issuer.url}/jwks` }));
    } else if (req.url === '/jwks') {
      issuer.fetches.jwks += 1;
      if (issuer.cacheControl !== undefined) res.setHeader('cache-control', issuer.cacheControl);
      res.end(JSON.stringify({ keys: issuer.published }));
    } else res.writeHead(404).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return issuer;
}

/** A signing key of the issuer. */
export interface SigningKey {
  readonly privateKey: CryptoKey;
  readonly publicKey: CryptoKey;
  readonly kid: string;
}

/** A fresh RS256 key named `kid`. */
export async function rsaKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  return { privateKey, publicKey, kid };
}

/** The public JWK of `key`, as a JWKS publishes it. */
export async function jwkOf(key: { publicKey: CryptoKey; kid: string }): Promise<JWK> {
  return { ...(await exportJWK(key.publicKey)), kid: key.kid, use: 'sig' };
}
