// The gateway as the conformance suite reaches it: `node gateway-target.mjs <http|stdio> <home>
// <user>` opens the stack once (as `mcp-agent serve` does, sandbox included) and serves it
//  - http: with `serveHttpGateway` for that one user, as `mcp-agent serve --http` does, but with
//    room for the suite's sessions (it opens one per scenario and does not always end it);
//  - stdio: each HTTP session of a loopback bridge with its own `serveStdioGateway` over a pair of
//    in-process streams. The gateway's stdio transport reads and writes the lines, as over a
//    child's stdin and stdout, without a process and a stack per session (1.4 s of CPU each).
// MCP_AGENT_WIRE picks the wire for the pool and the gateway, as in `mcp-agent`. Prints
// `listening <url>`; SIGTERM closes the gateway, then the stack, and prints `wire-activity
// <json>` (@mcp-agent/wire's counts: with `sdk` none of its parts may have run).
import { PassThrough } from 'node:stream';
import { openAgentStack } from '../../packages/agent/dist/index.js';
import { serveHttpGateway, serveStdioGateway } from '../../apps/server/dist/index.js';
import { lineTransport, serveStdioOverHttp } from '../../packages/test-support/dist/index.js';
import { wireActivity, wireModeFrom } from '../../packages/wire/dist/index.js';

const [transport, home, userId] = process.argv.slice(2);
if (!['http', 'stdio'].includes(transport) || home === undefined || userId === undefined) {
  process.stderr.write('usage: gateway-target.mjs <http|stdio> <home> <user>\n');
  process.exit(2);
}
const wire = wireModeFrom(process.env);
const stack = await openAgentStack({ home, pool: { wire } });
const served =
  transport === 'http'
    ? await serveHttpGateway({
        stack,
        port: 0,
        singleUser: userId,
        wire,
        limits: { maxSessionsPerUser: 256 },
      })
    : await serveStdioOverHttp(() => {
        const stdin = new PassThrough();
        const stdout = new PassThrough();
        void serveStdioGateway({ stack, userId, stdin, stdout, wire });
        return lineTransport(stdin, stdout);
      });
process.stdout.write(`listening ${served.url}\n`);
process.once('SIGTERM', async () => {
  await served.close();
  await stack.close();
  process.stdout.write(`wire-activity ${JSON.stringify(wireActivity())}\n`);
  process.exit(0);
});
