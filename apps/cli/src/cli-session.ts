import { userInfo } from 'node:os';
import { createContext, type AgentContext } from '@mcp-agent/core';
import type { AgentStack } from '@mcp-agent/agent';
import type { WireMode } from '@mcp-agent/wire';
import type { Invocation } from './invocation.js';
import { cliLogger } from './logging.js';

/**
 * What one run of the command holds: the user, and the stack, opened on first use (a command
 * that needs no registry never loads it) and closed once — on success, on error, or when a
 * signal ends the command — so no server it started is left behind.
 */
export class CliSession {
  readonly userId: string;
  readonly ctx: AgentContext;
  readonly #cli: Invocation;
  #stack: Promise<AgentStack> | undefined;
  #wire: WireMode = 'lanes';
  #closing: Promise<void> | undefined;

  constructor(cli: Invocation) {
    this.#cli = cli;
    this.userId = String(cli.values.user ?? process.env.MCP_AGENT_USER ?? loginName());
    this.ctx = createContext({ userId: this.userId });
  }

  /** The stack; the sandbox only for the commands that run code. */
  stack(options: { sandbox?: boolean } = {}): Promise<AgentStack> {
    this.#stack ??= (async () => {
      const [{ openAgentStack }, { wireModeFrom }, logger] = await Promise.all([
        import('@mcp-agent/agent'),
        import('@mcp-agent/wire'),
        cliLogger(this.#cli.values.verbose === true),
      ]);
      // MCP_AGENT_WIRE=sdk: the pool and the gateway on the MCP SDK alone; read once, here.
      this.#wire = wireModeFrom(process.env);
      const home = this.#cli.values.home;
      return openAgentStack({
        ...(typeof home === 'string' ? { home } : {}),
        logger,
        ...(options.sandbox === true ? {} : { sandbox: false }),
        pool: { wire: this.#wire },
      });
    })();
    return this.#stack;
  }

  /** `MCP_AGENT_WIRE`, as read when the stack opened (`lanes` before). */
  get wire(): WireMode {
    return this.#wire;
  }

  /** Closes the stack if it was opened: MCP servers, sandbox workers, the database. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const stack = await this.#stack?.catch(() => undefined);
      await stack?.close();
    })();
    return this.#closing;
  }
}

function loginName(): string {
  try {
    return userInfo().username || 'local';
  } catch {
    return 'local';
  }
}
