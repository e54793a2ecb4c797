import type { Logger } from '@mcp-agent/core';
import type { CatalogUpdate } from '../../store/repositories/tool-catalog.js';

/**
 * Warns the operator of what a discovery stored: no tools at all, tools the catalog rejected,
 * and definitions flagged as possible poisoning (the first 20), to review before trusting them.
 */
export function warnOfCatalog(update: CatalogUpdate, logger: Logger): void {
  if (update.toolCount === 0) logger.warn({}, 'server listed zero tools');
  if (update.rejected.length > 0)
    logger.warn({ rejected: update.rejected }, 'tools rejected from the catalog');
  if (update.flagged.length > 0)
    logger.warn(
      { flagged: update.flagged.slice(0, 20) },
      'tool definitions flagged as possible poisoning; review them before trusting this server',
    );
}
