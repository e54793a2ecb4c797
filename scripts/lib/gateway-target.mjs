// The gateway as the conformance suite reaches it: `node gateway-target.mjs <http|stdio> <home>
// <user>` opens the stack once (as `mcp-agent serve` does, sandbox included) and serves it
//  - http: with `serveHttpGateway` for that one user, as `mcp-agent serve --http` does, but with
//    room for the suite's sessions (it opens one per scenario and does not always end it);
//  - stdio: each HTTP session of a loopback bridge with its own `serveStdioGateway` over a pair of
//    in-process streams. The gateway's stdio transport reads and writes the lines, as over a
//    child's stdin and stdout, without a process and a stack per session (1.4 s of CPU each).
// Prints `listening <url>`; SIGTERM closes the gateway, then the stack.
import { PassThrough } from 'node:stream';
import { openAgentStack } from '../../packages/agent/dist/index.js';
import { serveHttpGateway, serveStdioGateway } from '../../apps/server/dist/index.js';
import { lineTransport, serveStdioOverHttp } from '../../packages/test-support/dist/index.js';

const [transport, home, userId] = process.argv.slice(2);
if (!['http', 'stdio'].includes(transport) || home === undefined || userId === undefined) {
  process.stderr.write('usage: gateway-target.mjs <http|stdio> <home> <user>\n');
  process.exit(2);
}
const stack = await openAgentStack({ home });
const served =
  transport === 'http'
    ? await serveHttpGateway({
        stack,
        port: 0,
        singleUser: userId,
        limits: { maxSessionsPerUser: 256 },
      })
    : await serveStdioOverHttp(() => {
        const stdin = new PassThrough();
        const stdout = new PassThrough();
        void serveStdioGateway({ stack, userId, stdin, stdout });
        return lineTransport(stdin, stdout);
      });
process.stdout.write(`listening ${served.url}\n`);
process.once('SIGTERM', async () => {
  await served.close();
  await stack.close();
  process.exit(0);
});
