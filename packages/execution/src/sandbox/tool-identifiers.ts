import type { SandboxTool } from './sandbox.js';

// Words that cannot (or must not) name a property users write as tools.x.y: JavaScript reserved
// words and the names that make objects behave specially (then → thenable, __proto__, …).
const RESERVED = new Set(
  `break case catch class const continue debugger default delete do else enum export extends false
  finally for function if import in instanceof new null return super switch this throw true try
  typeof var void while with yield let static implements interface package private protected public
  await async __proto__ constructor prototype then toString valueOf hasOwnProperty`.split(/\s+/),
);

/** A tool with the identifiers code uses for it. */
export interface NamedTool extends SandboxTool {
  readonly providerIdentifier: string;
  readonly toolIdentifier: string;
}

/**
 * Safe JavaScript identifiers for every provider and tool: characters outside [A-Za-z0-9_$]
 * become `_`, a leading digit or a reserved name gets a `_` prefix, names are capped at 64
 * characters, and collisions (including names that differ only by case after cleaning) get
 * `_2`, `_3`… in the order given, so two tools never share an identifier.
 */
export function nameTools(tools: readonly SandboxTool[]): NamedTool[] {
  const providerIds = new Map<string, string>();
  const usedProviders = new Set<string>();
  const usedTools = new Map<string, Set<string>>();
  return tools.map((tool) => {
    let providerIdentifier = providerIds.get(tool.provider);
    if (providerIdentifier === undefined) {
      providerIdentifier = unique(identifier(tool.provider), usedProviders);
      providerIds.set(tool.provider, providerIdentifier);
    }
    const used = usedTools.get(providerIdentifier) ?? new Set<string>();
    usedTools.set(providerIdentifier, used);
    return { ...tool, providerIdentifier, toolIdentifier: unique(identifier(tool.name), used) };
  });
}

function identifier(name: string): string {
  let id = name
    .normalize('NFKC')
    .replace(/[^A-Za-z0-9_$]/g, '_')
    .slice(0, 64);
  if (id === '' || /^[0-9]/.test(id) || RESERVED.has(id)) id = `_${id}`;
  return id;
}

function unique(base: string, used: Set<string>): string {
  let candidate = base;
  for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = `${base}_${n}`;
  used.add(candidate.toLowerCase());
  return candidate;
}
