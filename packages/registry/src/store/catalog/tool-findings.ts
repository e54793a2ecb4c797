/** Why a tool definition looks like an attempt to steer the model rather than describe a tool. */
export type ToolFindingKind =
  | 'hidden-instructions'
  | 'invisible-characters'
  | 'padding'
  | 'oversized-description'
  | 'cross-server-reference'
  | 'suspicious-parameter';

/** One thing found in one tool's definition, for the operator to look at. */
export interface ToolFinding {
  /** The tool's name, as its server lists it. */
  readonly tool: string;
  /** What was found. */
  readonly kind: ToolFindingKind;
  /** Where and what, short: never the whole description. */
  readonly detail: string;
}

// Tags and phrases that address the model instead of describing the tool (Invariant's
// <IMPORTANT> tool poisoning, "ignore previous instructions", requests to hide things).
const HIDDEN_TAG = /<\s*\/?\s*(important|system|instructions?|secret|hidden|admin)\b[^>]*>/i;
const INSTRUCTION =
  /ignore (?:all |any )?(?:previous|prior|above|earlier) (?:instructions|prompts?|messages)|do not (?:tell|inform|mention|reveal)[^.]{0,40}\buser|(?:read|cat|send|upload|include|pass)[^.]{0,60}(?:~\/\.ssh|id_rsa|\.env\b|mcp\.json|credentials file|private key)/i;
// Control and format characters (zero-width, bidi overrides, soft hyphen, BOM), except the
// tab and line breaks of ordinary text.
const INVISIBLE = /(?![\t\n\r])[\p{Cc}\p{Cf}]/u;
const PADDING = /\s{200,}/u;
const SECRET_PARAMETER =
  /ssh|id_rsa|id_ed25519|private_?key|passwd|\/etc\/shadow|\.env$|aws_secret/i;
// Real descriptions reach 8k characters (API references); past 10k it is padding or payload.
const MAX_DESCRIPTION = 10_000;

/**
 * Scans tool definitions as served (raw `tools/list` objects) for poisoning: hidden instruction
 * blocks, invisible characters, whitespace padding, oversized descriptions, mentions of another
 * server's tools (shadowing), and parameters, enums or defaults that ask for secrets or carry
 * instructions. `otherTools` maps the tenant's other servers' tool names to their server.
 * Findings are for the operator; the views already cap what the model reads of a description.
 */
export function scanToolDefinitions(
  tools: readonly unknown[],
  otherTools: ReadonlyMap<string, string>,
): ToolFinding[] {
  const findings: ToolFinding[] = [];
  const own = new Set(
    tools
      .map((tool) => (tool as { name?: unknown } | null)?.name)
      .filter((n) => typeof n === 'string'),
  );
  // Shadowing names another server's tool; a server naming its own tools is documentation.
  const shadowable = [...otherTools.keys()].filter(
    (name) => isDistinctiveName(name) && !own.has(name),
  );
  for (const tool of tools) {
    if (typeof tool !== 'object' || tool === null) continue;
    const { name, description, inputSchema } = tool as {
      name?: unknown;
      description?: unknown;
      inputSchema?: unknown;
    };
    if (typeof name !== 'string') continue;
    const add = (kind: ToolFindingKind, detail: string) =>
      findings.push({ tool: name, kind, detail: detail.slice(0, 200) });
    const text = typeof description === 'string' ? description : '';
    scanText(text, 'description', add);
    if (text.length > MAX_DESCRIPTION)
      add('oversized-description', `description is ${text.length} characters`);
    for (const other of shadowable) {
      if (mentions(text, other))
        add(
          'cross-server-reference',
          `description mentions ${other} of server ${otherTools.get(other)}`,
        );
    }
    const properties = (inputSchema as { properties?: unknown } | undefined)?.properties;
    if (typeof properties !== 'object' || properties === null) continue;
    for (const [parameter, schema] of Object.entries(properties)) {
      if (SECRET_PARAMETER.test(parameter) || parameter.length > 64)
        add('suspicious-parameter', `parameter "${parameter.slice(0, 80)}"`);
      const {
        description: about,
        default: fallback,
        enum: choices,
      } = (schema ?? {}) as {
        description?: unknown;
        default?: unknown;
        enum?: unknown;
      };
      if (typeof about === 'string') scanText(about, `parameter ${parameter}`, add);
      const values = [fallback, ...(Array.isArray(choices) ? choices : [])];
      for (const value of values) {
        if (typeof value !== 'string') continue;
        if (HIDDEN_TAG.test(value) || INSTRUCTION.test(value))
          add(
            'suspicious-parameter',
            `parameter ${parameter} has an enum or default that reads as instructions`,
          );
      }
    }
  }
  return findings;
}

function scanText(
  text: string,
  where: string,
  add: (kind: ToolFindingKind, detail: string) => void,
): void {
  const tag = HIDDEN_TAG.exec(text);
  if (tag !== null) add('hidden-instructions', `${where} has a ${tag[0].slice(0, 40)} block`);
  const phrase = INSTRUCTION.exec(text);
  if (phrase !== null) add('hidden-instructions', `${where} says "${phrase[0].slice(0, 80)}"`);
  const invisible = INVISIBLE.exec(text);
  if (invisible !== null)
    add(
      'invisible-characters',
      `${where} has U+${invisible[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} at ${invisible.index}`,
    );
  if (PADDING.test(text)) add('padding', `${where} has a run of 200+ blank characters`);
}

// Generic names ("search", "list") appear in prose by chance; names with a separator or a case
// change ("send_email", "createIssue") do not.
function isDistinctiveName(name: string): boolean {
  return name.length >= 6 && /[_\-.]|[a-z][A-Z]/.test(name);
}

function mentions(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    const before = text[at - 1] ?? ' ';
    const after = text[at + name.length] ?? ' ';
    if (!/[\w-]/.test(before) && !/[\w-]/.test(after)) return true;
  }
  return false;
}
