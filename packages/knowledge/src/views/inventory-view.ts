import type { ToolManifest } from '../toolbox-builder.js';
import { countTokens } from './token-count.js';
import { firstLine } from './description-text.js';

/** Options of {@link inventoryView}. */
export interface InventoryViewOptions {
  /** Tokens (o200k) the view may take; default 1,500. */
  readonly tokenBudget?: number;
}

/**
 * What the model sees first: each server with its tool names, under a token budget. When the
 * names do not fit, each server keeps a one-line summary, its tool count and the names that
 * fit in its share, and the view says that search finds the rest. Deterministic: the same
 * manifest gives the same text.
 */
export function inventoryView(manifest: ToolManifest, options: InventoryViewOptions = {}): string {
  const budget = options.tokenBudget ?? 1_500;
  const servers = manifest.servers;
  const toolCount = servers.reduce((sum, p) => sum + p.tools.length, 0);
  const intro =
    servers.length === 0
      ? 'No MCP servers are connected for this user, so there are no tools to use.'
      : `${toolCount} tools on ${servers.length} servers. Find tools with search_tools, read them with describe_tools, then call them.`;
  const headers = servers.map((p) => {
    const summary = firstLine(p.server.description ?? p.server.name ?? '', 100);
    const state = p.available ? '' : ` [unavailable: ${firstLine(p.reason ?? '', 80)}]`;
    return `## ${p.server.id} (${p.tools.length} tools)${summary === '' ? '' : ` — ${summary}`}${state}`;
  });
  const full = [
    intro,
    ...servers.flatMap((p, i) => [
      headers[i] as string,
      p.tools.map((t) => t.spec.name).join(', '),
    ]),
  ]
    .filter((line) => line !== '')
    .join('\n');
  if (countTokens(full) <= budget) return full;

  // Over budget: servers keep their headers while they fit in 70% of the budget; the names
  // share what is left equally. Token counts are per line, so this stays linear.
  const note = 'Not every tool name fits here: search_tools finds the rest.';
  const lines = [intro, note];
  let used = countTokens(lines.join('\n')) + 2;
  const headerCosts = headers.map((header) => countTokens(header) + 1);
  let shown = 0;
  let headerTotal = 0;
  while (
    shown < servers.length &&
    used + headerTotal + (headerCosts[shown] as number) <= budget * 0.7
  ) {
    headerTotal += headerCosts[shown] as number;
    shown += 1;
  }
  const hidden = servers.length - shown;
  const tail = hidden > 0 ? `… and ${hidden} more servers: search_tools covers them too.` : '';
  used += headerTotal + (tail === '' ? 0 : countTokens(tail) + 1);
  // Per-line counts slightly undercount the joined text; shrink the shares until it fits.
  for (let factor = 1; factor > 0.5; factor -= 0.05) {
    const share = Math.max(0, Math.floor(((budget - used) * factor) / Math.max(1, shown)));
    const text = [
      ...lines,
      ...nameLines(servers.slice(0, shown), headers, share),
      ...(tail === '' ? [] : [tail]),
    ].join('\n');
    if (countTokens(text) <= budget) return text;
  }
  return [...lines, ...headers.slice(0, shown), ...(tail === '' ? [] : [tail])].join('\n');
}

function nameLines(
  servers: ToolManifest['servers'],
  headers: readonly string[],
  share: number,
): string[] {
  const lines: string[] = [];
  for (let i = 0; i < servers.length; i++) {
    const server = servers[i]!;
    lines.push(headers[i] as string);
    const names: string[] = [];
    let spent = 8; // room for the "… N more" suffix
    for (const tool of server.tools) {
      const cost = countTokens(`${tool.spec.name}, `);
      if (spent + cost > share) break;
      names.push(tool.spec.name);
      spent += cost;
    }
    const more = server.tools.length - names.length;
    const suffix = more > 0 ? `${names.length > 0 ? ', ' : ''}… ${more} more` : '';
    if (names.length + more > 0) lines.push(`${names.join(', ')}${suffix}`);
  }
  return lines;
}
