// Runs the official MCP conformance suite's server scenarios against the gateway, four times at
// once: over streamable HTTP and over stdio (the stdio gateway behind a loopback HTTP bridge, since
// the suite speaks HTTP only; both served as `mcp-agent serve` serves them by lib/gateway-target),
// each with the lanes on and with MCP_AGENT_WIRE=sdk. The gateway fronts a real MCP server with
// the suite's fixtures (test-support's conformance server), so resources and calls walk gateway
// → pool → server.
// Every scenario of the suite is either run or listed below as not applicable, with why; a run's
// expected failures are in scripts/conformance/<run>.expected-failures.yaml, each with its
// reason. Prints one summary line per run ("conformance-server-<run>: N passed, M failed").
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readExpectedFailures, report, runServerSuite, verdict } from './lib/run-conformance.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const suite = join(
  root,
  'apps/server/node_modules/@modelcontextprotocol/conformance/dist/index.js',
);
const cli = join(root, 'apps/cli/dist/cli.js');
const fixture = join(root, 'packages/test-support/src/fixtures/conformance-server.mjs');

// The gateway's tools are its meta-tools (search_tools, describe_tools, call_tool, run_code, …);
// a server's tool is reached as call_tool {"tool_id": "<server>.<tool>"}, never under its own
// name. These scenarios call a fixture tool by its bare name, so they cannot apply: the call
// reaches the lane and gets the gateway's "Unknown command" error (an isError result, on which
// tools-call-simple-text and tools-call-error would even pass while proving nothing). The same
// fixtures are called through call_tool in apps/server's wire differential test.
const BY_NAME =
  'calls a fixture tool by its bare name; the gateway exposes meta-tools, and a server tool is call_tool {tool_id: "<server>.<tool>"}';
const notApplicable = {
  'tools-call-simple-text': BY_NAME,
  'tools-call-image': BY_NAME,
  'tools-call-audio': BY_NAME,
  'tools-call-embedded-resource': BY_NAME,
  'tools-call-mixed-content': BY_NAME,
  'tools-call-with-logging': BY_NAME,
  'tools-call-error': BY_NAME,
  'tools-call-with-progress': BY_NAME,
  'tools-call-sampling': `${BY_NAME}; the pool's client offers no sampling to its servers`,
  'tools-call-elicitation': `${BY_NAME}; the pool's client offers no elicitation to its servers`,
  'elicitation-sep1034-defaults': `${BY_NAME}; the pool's client offers no elicitation`,
  'elicitation-sep1330-enums': `${BY_NAME}; the pool's client offers no elicitation`,
  'json-schema-2020-12':
    "looks for the fixture tool in the gateway's tools/list, which lists meta-tools (describe_tools gives a server tool's schema verbatim)",
  'completion-complete':
    'the gateway declares no completions capability: it offers no prompts, and resource templates pass through without completion',
  'prompts-list':
    'the gateway declares no prompts capability (its surface is meta-tools and resources)',
  'prompts-get-simple': 'the gateway declares no prompts capability',
  'prompts-get-with-args': 'the gateway declares no prompts capability',
  'prompts-get-embedded-resource': 'the gateway declares no prompts capability',
  'prompts-get-with-image': 'the gateway declares no prompts capability',
};
// Scenarios of the HTTP listener itself: over stdio the listener is the test bridge.
const httpOnly = {
  'dns-rebinding-protection':
    "checks the HTTP listener's Host and Origin checks; over stdio the listener is the test bridge, not the gateway",
};

const runs = [
  { name: 'http-lanes', stdio: false, wire: undefined },
  { name: 'http-sdk', stdio: false, wire: 'sdk' },
  { name: 'stdio-lanes', stdio: true, wire: undefined },
  { name: 'stdio-sdk', stdio: true, wire: 'sdk' },
];

// Every scenario the suite has is accounted for: a new one fails the run until it is sorted.
const listed = spawnSync(process.execPath, [suite, 'list', '--server'], { encoding: 'utf8' });
const scenarios = [...listed.stdout.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1]);
if (scenarios.length === 0)
  throw new Error(`the suite listed no server scenarios: ${listed.stderr}`);

const started = Date.now();
const outcomes = await Promise.all(runs.map(conformanceRun));
console.log(`conformance-server: 4 runs in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(outcomes.every(Boolean) ? 0 : 1);

/** One run: its own home and gateway (or bridge), its scenarios, its summary line. */
async function conformanceRun(run) {
  const label = `conformance-server-${run.name}`;
  const expectedFile = join(root, `scripts/conformance/${run.name}.expected-failures.yaml`);
  const expected = new Set(readExpectedFailures(expectedFile));
  const skipped = { ...notApplicable, ...(run.stdio ? httpOnly : {}) };
  const applicable = scenarios.filter((scenario) => !(scenario in skipped));
  const unknown = [...expected].filter((scenario) => !applicable.includes(scenario));
  if (unknown.length > 0) {
    console.log(`${label}: ${expectedFile} lists ${unknown.join(', ')}, not run here`);
    console.log(`${label}: 0 passed, ${unknown.length} failed`);
    return false;
  }
  const lines = [];
  const home = mkdtempSync(join(tmpdir(), `mcp-conf-${run.name}-`));
  const env = { ...process.env, MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') };
  delete env.MCP_AGENT_WIRE;
  if (run.wire !== undefined) env.MCP_AGENT_WIRE = run.wire;
  mkdirSync(join(home, 'results'));
  const base = [cli, '--home', home, '--user', 'conformance'];
  const added = spawnSync(
    process.execPath,
    [...base, 'servers', 'add', 'conformance', '--command', process.execPath, '--arg', fixture],
    { env, encoding: 'utf8' },
  );
  if (added.status !== 0) throw new Error(`${label}: servers add failed: ${added.stderr}`);
  const target = start(
    [
      join(root, 'scripts/lib/gateway-target.mjs'),
      run.stdio ? 'stdio' : 'http',
      home,
      'conformance',
    ],
    env,
  );
  try {
    // Every scenario in one start of the suite; those not applicable run too (a session each,
    // answered at once) and their results are not read.
    const checks = await runServerSuite(suite, await target.url, join(home, 'results'));
    const results = applicable.map((scenario) =>
      verdict(scenario, checks.get(scenario), { expected: expected.has(scenario) }),
    );
    // What proves the switch: on `sdk` no part of @mcp-agent/wire ran; on `lanes` the call lane
    // (the suite's tools/call requests) and, over stdio, the stdio line transport did.
    const activity = await target.stop();
    const printed = Object.keys(activity).length > 0;
    const wireHeld =
      printed &&
      (run.wire === 'sdk'
        ? Object.values(activity).every((count) => count === 0)
        : activity.callLaneCalls > 0 && (!run.stdio || activity.stdioLineTransports > 0));
    lines.push(`wire activity (${run.wire ?? 'lanes'}): ${JSON.stringify(activity)}`);
    if (!wireHeld)
      results.push({
        scenario: 'wire activity',
        outcome: 'fail',
        checks: '0/1',
        output: `    FAILED: ${!printed ? 'the gateway printed no wire activity' : run.wire === 'sdk' ? 'a part of the wire ran on sdk' : 'the lanes did not run'}`,
      });
    const log = (line) => lines.push(line);
    return report(label, results, { notApplicable: Object.keys(skipped).length, log });
  } catch (error) {
    lines.push(`${label}: ${error.message}`, `${label}: 0 passed, 1 failed`);
    return false;
  } finally {
    await target.stop();
    rmSync(home, { recursive: true, force: true });
    // One run's lines together, whichever finished first.
    console.log(`\n${lines.join('\n')}`);
  }
}

/**
 * Starts `node <args…>`: `url` resolves to the URL it prints (`listening <url>`), `stop()` ends it
 * and resolves to the wire activity it printed as it closed (`{}` when it printed none).
 */
function start(args, env) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env });
  const url = new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`it did not start: ${seen}`)), 30_000);
    child.stdout.on('data', (chunk) => {
      seen += chunk;
      const match = /listening (\S+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`it exited (${code}) before it started: ${seen}`)),
    );
  });
  let printed = '';
  child.stdout.on('data', (chunk) => (printed += chunk));
  // Its home goes once it has exited and let go of its database.
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    const activity = /^wire-activity (.+)$/m.exec(printed)?.[1];
    return activity === undefined ? {} : JSON.parse(activity);
  };
  return { url, stop };
}
