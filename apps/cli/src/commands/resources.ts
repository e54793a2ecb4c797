import { McpAgentError, type ErrorCode, type JsonValue } from '@mcp-agent/core';
import type { ServerResources } from '@mcp-agent/actions';
import { table, usage } from '../invocation.js';
import { writeMediaFiles } from '../media-files.js';
import type { StackCommand } from './stack-command.js';

/**
 * resources list [server] | read <server> <uri>. Only the user's own servers are reached;
 * list without a server asks every available one. A read prints text whole and writes binary
 * contents to files, as `tools call` does.
 */
export const resources: StackCommand = async (cli, stack, ctx, sub, rest) => {
  const { values, out } = cli;
  switch (sub) {
    case 'list': {
      const ids =
        rest.length > 0 ? rest : (await stack.registry.availability(ctx)).active.map((s) => s.id);
      const listings: ServerResources[] = [];
      const errors: { server: string; code: ErrorCode; message: string }[] = [];
      for (const id of ids) {
        await stack.pool.ready(ctx, id).catch(() => undefined); // the read says why it failed
        const response = await stack.dispatcher.listResources(ctx, id, { signal: ctx.signal });
        if (response.ok) listings.push(response.data as unknown as ServerResources);
        else
          errors.push({ server: id, code: response.error.code, message: response.error.message });
      }
      // One server asked by name that cannot be listed is this command's failure.
      if (rest.length === 1 && errors[0] !== undefined)
        throw new McpAgentError(errors[0].code, errors[0].message);
      out(listText(listings, errors), { servers: listings, errors });
      return;
    }
    case 'read': {
      const [server, uri] = rest;
      if (server === undefined || uri === undefined)
        usage('resources read needs a server and a URI', 'resources read');
      await stack.pool.ready(ctx, server);
      const response = await stack.dispatcher.readResource(ctx, server, uri, {
        signal: ctx.signal,
        caller: 'code',
      });
      if (!response.ok)
        throw new McpAgentError(response.error.code, response.error.message, {
          details: response.error.details,
        });
      const { value, files } = writeMediaFiles(response.data, {
        name: nameOf(uri),
        ...(typeof values.out === 'string' ? { out: values.out } : {}),
      });
      out(readText(value), {
        server,
        uri,
        contents: value,
        ...(files.length === 0 ? {} : { files }),
      });
      return;
    }
    default:
      usage(`unknown "resources ${sub ?? ''}"`, 'resources');
  }
};

function listText(
  listings: readonly ServerResources[],
  errors: readonly { server: string; message: string }[],
): string {
  const blocks = listings.map((listing) => {
    const rows = [
      ...listing.resources.map((r) => [
        String(r.uri),
        String(r.mimeType ?? ''),
        String(r.name ?? ''),
      ]),
      ...listing.templates.map((t) => [
        String(t.uriTemplate),
        String(t.mimeType ?? ''),
        `${String(t.name ?? '')} (template)`,
      ]),
    ];
    const lines = [`${listing.server}:`];
    if (listing.note !== undefined) lines.push(`  ${listing.note}`);
    else if (rows.length === 0) lines.push('  no resources');
    else lines.push(table(rows).replace(/^/gm, '  '));
    if (listing.truncated === true) lines.push('  … more than 1,000; the listing stops there');
    return lines.join('\n');
  });
  for (const error of errors) blocks.push(`${error.server}: ${error.message}`);
  return blocks.length === 0 ? 'no servers' : blocks.join('\n');
}

// Text contents print as they are; anything else (a file path, a blob's description) as JSON.
function readText(value: JsonValue): string {
  const blocks = Array.isArray(value) ? value : [value];
  const texts = blocks.map((block) => {
    const resource = (block as { resource?: { text?: unknown } } | null)?.resource;
    return typeof resource?.text === 'string' ? resource.text : undefined;
  });
  return texts.every((text) => text !== undefined)
    ? texts.join('\n')
    : JSON.stringify(value, null, 2);
}

function nameOf(uri: string): string {
  const last =
    uri
      .replace(/[?#].*$/, '')
      .split('/')
      .filter(Boolean)
      .at(-1) ?? 'resource';
  return last.replace(/\.[^.]*$/, '') || 'resource';
}
