import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError, describeIssues } from '@mcp-agent/core';
import type { StdioAllowEntry } from '@mcp-agent/registry';

const allowlistFile = z.strictObject({
  stdio: z.array(
    z.strictObject({
      command: z.string().min(1),
      args: z.array(z.string()).optional(),
      env: z.array(z.string().min(1)).optional(),
    }),
  ),
});

/**
 * Reads the stdio servers a multi-tenant service lets its tenants register:
 * `{"stdio": [{"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"], "env": ["MEMORY_FILE_PATH"]}]}`.
 */
export function readStdioAllowlist(file: string): readonly StdioAllowEntry[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(
      `The stdio allowlist ${file} could not be read as JSON: ${(error as Error).message}`,
    );
  }
  const parsed = allowlistFile.safeParse(raw);
  if (!parsed.success)
    throw new ConfigError(
      `Invalid stdio allowlist ${file}: ${describeIssues(parsed.error.issues)
        .map((issue) => `${issue.path}: ${issue.message}`)
        .join('; ')}; expected {"stdio": [{"command", "args"?, "env"?}]}.`,
    );
  return parsed.data.stdio;
}
