import type { ToolManifest } from '../toolbox-builder.js';
import { countTokens } from './token-count.js';
import { firstLine } from './description-text.js';

/** Options of {@link inventoryView}. */
export interface InventoryViewOptions {
  /** Tokens (o200k) the view may take; default 1,500. */
  readonly tokenBudget?: number;
}

/**
 * What the model sees first: each provider with its tool names, under a token budget. When the
 * names do not fit, each provider keeps a one-line summary, its tool count and the names that
 * fit in its share, and the view says that search finds the rest. Deterministic: the same
 * manifest gives the same text.
 */
export function inventoryView(manifest: ToolManifest, options: InventoryViewOptions = {}): string {
  const budget = options.tokenBudget ?? 1_500;
  const providers = manifest.providers;
  const toolCount = providers.reduce((sum, p) => sum + p.tools.length, 0);
  const intro =
    providers.length === 0
      ? 'No MCP servers are connected for this user, so there are no tools to use.'
      : `${toolCount} tools on ${providers.length} servers. Find tools with search_tools, read them with describe_tools, then call them.`;
  const headers = providers.map((p) => {
    const summary = firstLine(p.provider.description ?? p.provider.name ?? '', 100);
    const state = p.available ? '' : ` [unavailable: ${firstLine(p.reason ?? '', 80)}]`;
    return `## ${p.provider.id} (${p.tools.length} tools)${summary === '' ? '' : ` — ${summary}`}${state}`;
  });
  const full = [
    intro,
    ...providers.flatMap((p, i) => [
      headers[i] as string,
      p.tools.map((t) => t.spec.name).join(', '),
    ]),
  ]
    .filter((line) => line !== '')
    .join('\n');
  if (countTokens(full) <= budget) return full;

  // Over budget: providers keep their headers while they fit in 70% of the budget; the names
  // share what is left equally. Token counts are per line, so this stays linear.
  const note = 'Not every tool name fits here: search_tools finds the rest.';
  const lines = [intro, note];
  let used = countTokens(lines.join('\n')) + 2;
  const headerCosts = headers.map((header) => countTokens(header) + 1);
  let shown = 0;
  let headerTotal = 0;
  while (
    shown < providers.length &&
    used + headerTotal + (headerCosts[shown] as number) <= budget * 0.7
  ) {
    headerTotal += headerCosts[shown] as number;
    shown += 1;
  }
  const hidden = providers.length - shown;
  const tail = hidden > 0 ? `… and ${hidden} more servers: search_tools covers them too.` : '';
  used += headerTotal + (tail === '' ? 0 : countTokens(tail) + 1);
  // Per-line counts slightly undercount the joined text; shrink the shares until it fits.
  for (let factor = 1; factor > 0.5; factor -= 0.05) {
    const share = Math.max(0, Math.floor(((budget - used) * factor) / Math.max(1, shown)));
    const text = [
      ...lines,
      ...nameLines(providers.slice(0, shown), headers, share),
      ...(tail === '' ? [] : [tail]),
    ].join('\n');
    if (countTokens(text) <= budget) return text;
  }
  return [...lines, ...headers.slice(0, shown), ...(tail === '' ? [] : [tail])].join('\n');
}

function nameLines(
  providers: ToolManifest['providers'],
  headers: readonly string[],
  share: number,
): string[] {
  const lines: string[] = [];
  for (let i = 0; i < providers.length; i++) {
    const provider = providers[i]!;
    lines.push(headers[i] as string);
    const names: string[] = [];
    let spent = 8; // room for the "… N more" suffix
    for (const tool of provider.tools) {
      const cost = countTokens(`${tool.spec.name}, `);
      if (spent + cost > share) break;
      names.push(tool.spec.name);
      spent += cost;
    }
    const more = provider.tools.length - names.length;
    const suffix = more > 0 ? `${names.length > 0 ? ', ' : ''}… ${more} more` : '';
    if (names.length + more > 0) lines.push(`${names.join(', ')}${suffix}`);
  }
  return lines;
}
