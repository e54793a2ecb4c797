import type { ToolManifest } from '@mcp-agent/knowledge';

// The most characters the list of servers adds to search_tools' description: a client lists
// it with every tools/list, so a user with fifty servers must not make it pages long.
export const MAX_SEARCH_SCOPE_CHARS = 600;
// Characters of one server's summary: enough to say what it is for.
const SUMMARY_CHARS = 80;

/**
 * What search_tools searches, in one sentence a model reads before it picks a tool: the
 * user's servers, each with its tool count and what it is for (its own summary, else its
 * first tools' names), cut at
 * `maxChars` with how many more there are. A client's model that cannot tell the user's GitHub
 * or database is behind a generic search tool skips it; this tells it.
 */
export function searchScope(manifest: ToolManifest, maxChars = MAX_SEARCH_SCOPE_CHARS): string {
  // Every server of the user in effect for this request, ready or not yet started (a gateway
  // connects lazily: its catalog is not known before the first call).
  const usable = manifest.servers;
  if (usable.length === 0) return 'No server is connected for you yet.';
  const head = 'Searches the tools of the servers connected for you: ';
  const parts: string[] = [];
  let length = head.length;
  for (const [i, p] of usable.entries()) {
    // A server that says nothing of itself is known by its first tools' names.
    const said = p.server.description ?? p.server.name ?? '';
    const summary = oneLine(
      said.trim() === '' || said === p.server.id
        ? p.tools
            .slice(0, 3)
            .map((t) => t.spec.name)
            .join(', ')
        : said,
      SUMMARY_CHARS,
    );
    const count = p.tools.length === 0 ? '' : `${p.tools.length} tools`;
    const about = [count, summary].filter((x) => x !== '').join(': ');
    const part = about === '' ? p.server.id : `${p.server.id} (${about})`;
    const more = usable.length - i - 1;
    const tail = more === 0 ? '.' : `; and ${more} more.`;
    if (length + part.length + 2 + tail.length > maxChars && parts.length > 0) {
      return `${head}${parts.join('; ')}; and ${usable.length - i} more.`;
    }
    parts.push(part);
    length += part.length + 2;
  }
  return `${head}${parts.join('; ')}.`;
}

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/gu, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}
