import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { InvalidArgumentsError, type ConfigInput } from '@mcp-agent/core';

/**
 * Values for a config file's `${input:…}`: asked for one by one on a terminal (a password
 * input without echo), the way VS Code asks; without a terminal, an error naming the flag that
 * gives each one.
 */
export async function askInputs(inputs: readonly ConfigInput[]): Promise<Record<string, string>> {
  if (inputs.length === 0) return {};
  if (!process.stdin.isTTY || !process.stderr.isTTY)
    throw new InvalidArgumentsError(
      `The file asks for ${inputs.map((input) => `"${input.id}"${input.description ? ` (${input.description})` : ''}`).join(', ')}, and there is no terminal to ask on: pass ${inputs.map((input) => `--input ${input.id}=<value>`).join(' ')}.`,
    );
  let hidden = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!hidden) process.stderr.write(chunk);
      done();
    },
  });
  const reader = createInterface({ input: process.stdin, output, terminal: true });
  const values: Record<string, string> = {};
  try {
    for (const input of inputs) {
      process.stderr.write(
        `${input.description ?? input.id} (input "${input.id}")${input.password ? ', hidden' : ''}: `,
      );
      hidden = input.password;
      values[input.id] = await reader.question('');
      if (hidden) process.stderr.write('\n');
      hidden = false;
    }
  } finally {
    reader.close();
  }
  return values;
}
