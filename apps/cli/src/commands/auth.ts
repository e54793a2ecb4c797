import { createServer, type Server } from 'node:http';
import { InvalidArgumentsError, type AgentContext } from '@mcp-agent/core';
import type { AgentStack } from '@mcp-agent/agent';
import { usage, wholeNumber, type Invocation } from '../invocation.js';

/** auth login | logout: OAuth with a loopback callback listener; the URL is printed. */
export async function auth(
  cli: Invocation,
  stack: AgentStack,
  ctx: AgentContext,
  sub: string | undefined,
): Promise<void> {
  const { values, rest, out } = cli;
  const server = rest[0] ?? usage(`auth ${sub ?? ''} needs a server id`, 'auth');
  if (sub === 'logout') {
    await stack.oauth.disconnect(ctx, server);
    out(`signed out of ${server}`, { signedOut: server });
    return;
  }
  if (sub !== 'login') usage(`unknown "auth ${sub ?? ''}"; use login or logout`);
  // A loopback listener receives the callback; the URL is printed, never opened through a shell.
  const port = wholeNumber(values, 'port', { min: 1, max: 65_535, fallback: 8976 });
  const redirect = `http://127.0.0.1:${port}/callback`;
  let listener: Server | undefined;
  const received = new Promise<{ code: string; state: string; iss?: string }>((resolve, reject) => {
    listener = createServer((req, res) => {
      const url = new URL(req.url ?? '/', redirect);
      const code = url.searchParams.get('code');
      res
        .writeHead(code ? 200 : 400, { 'content-type': 'text/plain' })
        .end(code ? 'Signed in; you can close this tab.' : 'No code in the callback.');
      listener?.close();
      const iss = url.searchParams.get('iss') ?? undefined;
      if (code)
        resolve({ code, state: url.searchParams.get('state') ?? '', ...(iss ? { iss } : {}) });
      else reject(new InvalidArgumentsError('The callback carried no authorisation code.'));
    });
  });
  // Listening first, so a taken port is a clear error before the user is sent anywhere.
  try {
    await new Promise<void>((resolve, reject) => {
      listener?.once('error', reject).listen(port, '127.0.0.1', resolve);
    });
  } catch (error) {
    throw new InvalidArgumentsError(
      `Cannot receive the callback on 127.0.0.1:${port} (${(error as Error).message}); pick another --port.`,
    );
  }
  const { authorizationUrl } = await stack.oauth.startOAuth(ctx, server, redirect);
  if (authorizationUrl === '') {
    out(`${server} is already authorised`, { authorised: server });
    return;
  }
  process.stderr.write(`Open this URL to sign in to ${server}:\n  ${authorizationUrl}\n`);
  const { code, state, iss } = await received;
  await stack.oauth.finalizeOAuth(ctx, server, code, state, iss);
  out(`signed in to ${server}`, { authorised: server });
}
