import { timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError, type Environment } from '@mcp-agent/core';
import { tokenDigest } from './token-digest.js';

const MIN_LENGTH = 32;

/**
 * The operator's bearer token: it reads `/metrics` and, in the web UI, every tenant's servers,
 * tasks, traces and logs and the process's figures. It is no tenant: it cannot run tasks or reach
 * the `/v1` API. Only its SHA-256 is kept, and a presented token is compared by digest in
 * constant time.
 */
export class OperatorToken {
  readonly #digest: Buffer;

  constructor(token: string) {
    if (token.length < MIN_LENGTH)
      throw new ConfigError(
        `The operator token must be at least ${MIN_LENGTH} characters (make one with "openssl rand -base64 32").`,
      );
    this.#digest = Buffer.from(tokenDigest(token), 'hex');
  }

  /**
   * The operator token from `--operator-token-file <path>` (the file's first line), else
   * `MCP_AGENT_OPERATOR_TOKEN_FILE`, else `MCP_AGENT_OPERATOR_TOKEN`; `undefined` when none is
   * set (then `/metrics` and the operator's views are off).
   */
  static fromConfig(file: string | undefined, env: Environment): OperatorToken | undefined {
    const path = file ?? (env.MCP_AGENT_OPERATOR_TOKEN_FILE || undefined);
    if (path !== undefined) {
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (error) {
        throw new ConfigError(
          `The operator token file ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
        );
      }
      return new OperatorToken(text.split(/\r?\n/)[0]?.trim() ?? '');
    }
    const value = env.MCP_AGENT_OPERATOR_TOKEN;
    return value === undefined || value === '' ? undefined : new OperatorToken(value.trim());
  }

  /** True when `authorization` is `Bearer <the operator token>`. */
  matches(authorization: string | undefined): boolean {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (token === undefined) return false;
    return timingSafeEqual(Buffer.from(tokenDigest(token), 'hex'), this.#digest);
  }
}
