import { firstLine } from '@mcp-agent/knowledge';

/** The note on a server left out because its last connection attempt failed, with the fix. */
export function failedNote(server: { readonly id: string; readonly lastError: string | null }) {
  return `note: ${server.id} is not included: its last connection attempt failed (${firstLine(server.lastError ?? '', 160)}); "mcp-agent servers status ${server.id}" tries again.\n`;
}
