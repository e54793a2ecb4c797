#!/usr/bin/env node
// The mcp-agent command. It wires packages together and holds no domain logic; each command
// lives in ./commands and is loaded only when it runs, so `--help` and the commands that need no
// registry start at once.
import { readFileSync } from 'node:fs';
import { cliError, exitCode, hint } from './cli-errors.js';
import { CliSession } from './cli-session.js';
import { helpFor } from './help.js';
import { closest, COMMANDS, invocation, usage, type Invocation } from './invocation.js';

let session: CliSession | undefined;
let asJson = process.argv.includes('--json');
try {
  const cli = invocation(process.argv.slice(2));
  asJson = cli.asJson;
  const { command, sub, values } = cli;
  if (values.version === true) {
    const { version } = JSON.parse(
      readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    cli.out(version, { version });
    process.exit(0);
  }
  if (command === undefined || values.help === true) {
    process.stdout.write(`${helpFor(command, sub)}\n`);
    process.exit(command === undefined && values.help !== true ? 2 : 0);
  }
  const spec = COMMANDS[command];
  if (spec === undefined) {
    const suggestion = closest(command, Object.keys(COMMANDS));
    usage(`unknown command "${command}"${suggestion ? ` (did you mean "${suggestion}"?)` : ''}`);
  }
  if (spec.subs !== undefined && (sub === undefined || !(sub in spec.subs))) {
    const suggestion = sub === undefined ? undefined : closest(sub, Object.keys(spec.subs));
    usage(
      `${sub === undefined ? `"${command}" needs one of` : `unknown "${command} ${sub}"${suggestion ? ` (did you mean "${command} ${suggestion}"?)` : ''}; use`} ${Object.keys(spec.subs).join(', ')}`,
      command,
    );
  }
  if (command === 'tokens') {
    // The token file, and the audit log when the registry is named: no stack.
    const { auditTokenChange, tokens } = await import('./commands/tokens.js');
    const change = tokens(cli, sub, cli.rest);
    if (change !== undefined) await auditTokenChange(cli, change);
    process.exit(0);
  }
  if (command === 'eval') {
    // Its own stacks, homes and servers, one per mode: nothing of the user's is touched.
    const { evalCommand } = await import('./commands/eval.js');
    await evalCommand(cli);
    process.exit(Number(process.exitCode ?? 0));
  }
  session = new CliSession(cli);
  if (command === 'ui') {
    // Its own stack: telemetry and the UI's log buffer come before it.
    const { ui } = await import('./commands/ui.js');
    const home = values.home === undefined ? {} : { home: String(values.home) };
    await ui(cli, session.userId, home);
    process.exit(0);
  }
  endOnSignals(session);
  endOnBrokenPipe(session);
  const ending = await dispatch(cli, session);
  if (ending === 'serving') await new Promise(() => undefined);
  await session.close();
  await exitWhenWritten(Number(process.exitCode ?? 0));
} catch (thrown) {
  const error = cliError(thrown);
  if (asJson)
    process.stdout.write(
      `${JSON.stringify({ error: { code: error.code, message: error.message } })}\n`,
    );
  else process.stderr.write(`mcp-agent: ${error.message}${hint(error)}\n`);
  await session?.close().catch(() => undefined);
  await exitWhenWritten(exitCode(error));
}

async function dispatch(cli: Invocation, session: CliSession): Promise<'done' | 'serving'> {
  const { sub, rest } = cli;
  switch (cli.command) {
    case 'servers': {
      if (sub === 'status') {
        const { serversStatus } = await import('./commands/servers-status.js');
        await serversStatus(cli, await session.stack(), session.ctx);
      } else {
        const { servers } = await import('./commands/servers.js');
        await servers(cli, await session.stack(), session.ctx, sub, rest);
      }
      return 'done';
    }
    case 'auth': {
      const { auth } = await import('./commands/auth.js');
      await auth(cli, await session.stack(), session.ctx, sub);
      return 'done';
    }
    case 'tools': {
      const { tools } = await import('./commands/tools.js');
      await tools(cli, await session.stack(), session.ctx, sub, rest);
      return 'done';
    }
    case 'resources': {
      const { resources } = await import('./commands/resources.js');
      await resources(cli, await session.stack(), session.ctx, sub, rest);
      return 'done';
    }
    case 'exec': {
      const { exec } = await import('./commands/exec.js');
      await exec(cli, await session.stack({ sandbox: true }), session.ctx, rest[0]);
      return 'done';
    }
    case 'run': {
      const { run } = await import('./commands/run.js');
      await run(cli, await session.stack({ sandbox: true }), session.ctx, rest.join(' '));
      return 'done';
    }
    case 'serve': {
      const { serve } = await import('./commands/serve.js');
      return serve(cli, await session.stack({ sandbox: true }), session.ctx, session.wire);
    }
    case 'usage': {
      const { usage: usageCommand } = await import('./commands/usage.js');
      await usageCommand(cli, await session.stack(), session.ctx, rest[0], rest.slice(1));
      return 'done';
    }
    case 'registry': {
      const { registrySearch } = await import('./commands/registry.js');
      await registrySearch(cli, rest);
      return 'done';
    }
    case 'client-config': {
      const { clientConfig } = await import('./commands/client-config.js');
      await clientConfig(cli, rest);
      return 'done';
    }
    default:
      return usage(`unknown command "${cli.command}"`);
  }
}

// Ctrl-C, a closed terminal or a kill: the servers this command started (each in its own
// process group, which the terminal's signal does not reach) are closed before it exits.
function endOnSignals(current: CliSession): void {
  const codes: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
  for (const [signal, code] of Object.entries(codes) as [NodeJS.Signals, number][]) {
    process.once(signal, () => {
      // A second signal, or a close that hangs, still ends the process (and the exit hook of the
      // process transport kills what is left).
      setTimeout(() => process.exit(code), 8_000).unref();
      process.once(signal, () => process.exit(code));
      void current.close().finally(() => process.exit(code));
    });
  }
}

// The reader of standard output went away (`mcp-agent tools search … | head`): what is left to
// print has no reader, so the command closes its servers and ends quietly, as Unix tools do.
/**
 * Exits once everything written has left the process: into a pipe Node writes asynchronously,
 * 64 KiB at a time, and `process.exit` drops the rest (`--json tools describe … | jq` got a cut).
 */
async function exitWhenWritten(code: number): Promise<never> {
  await Promise.all(
    [process.stdout, process.stderr].map(
      (stream) =>
        new Promise<void>((resolve) => {
          if (stream.writableLength === 0) resolve();
          else stream.write('', () => resolve());
        }),
    ),
  );
  process.exit(code);
}

function endOnBrokenPipe(current: CliSession): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') {
      if (process.stdout.listenerCount('error') <= 1) throw error;
      return;
    }
    setTimeout(() => process.exit(0), 8_000).unref();
    void current.close().finally(() => process.exit(0));
  });
}
