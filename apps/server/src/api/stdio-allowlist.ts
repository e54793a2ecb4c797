import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError, describeIssues } from '@mcp-agent/core';
import type { StdioAllowEntry } from '@mcp-agent/registry';

const envRule = z.strictObject({
  value: z.string().optional(),
  pattern: z
    .string()
    .min(1)
    .refine(compiles, { message: 'not a valid regular expression' })
    .optional(),
  path: z.literal('tenant').optional(),
});

const allowlistFile = z.strictObject({
  stdio: z.array(
    z.strictObject({
      command: z.string().min(1),
      args: z.array(z.string()).optional(),
      env: z.union([z.array(z.string().min(1)), z.record(z.string().min(1), envRule)]).optional(),
    }),
  ),
});

/**
 * Reads the stdio servers a multi-tenant service lets its tenants register, each with the
 * environment variables tenants may set, by name or with a rule for their values:
 * `{"stdio": [{"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"], "env": {"MEMORY_FILE_PATH": {"path": "tenant"}}}]}`
 * (`"env": ["NAME"]` allows any value, a path only inside the tenant's own folder).
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
        .join(
          '; ',
        )}; expected {"stdio": [{"command", "args"?, "env"?: ["NAME"] or {"NAME": {"value"?, "pattern"?, "path"?: "tenant"}}}]}.`,
    );
  return parsed.data.stdio;
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}
