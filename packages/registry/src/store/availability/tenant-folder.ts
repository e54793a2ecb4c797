import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** A tenant's own folder under the registry home, where its stdio servers keep their files. */
export interface TenantFolder {
  /** The registry home (`MCP_AGENT_HOME`): the database, the key file, every tenant's folder. */
  readonly home: string;
  /** `<home>/tenants/<name>`; see {@link tenantFolderName}. */
  readonly path: string;
}

/** The folder of `userId` under `home`; not created until {@link ensureTenantFolder}. */
export function tenantFolder(home: string, userId: string): TenantFolder {
  const absoluteHome = resolve(home);
  return { home: absoluteHome, path: join(absoluteHome, 'tenants', tenantFolderName(userId)) };
}

/**
 * A folder name for a user id: the id's letters, digits, `-` and `_` (at most 40, lowercased,
 * others as `_`) for the operator's eye, then 16 hex digits of its SHA-256, so two ids never
 * share a folder, whatever their characters or case, on any file system.
 */
export function tenantFolderName(userId: string): string {
  const readable = userId
    .toLowerCase()
    .replace(/[^a-z0-9_-]/g, '_')
    .slice(0, 40);
  const digest = createHash('sha256').update(userId, 'utf8').digest('hex').slice(0, 16);
  return `${readable}-${digest}`;
}

/** Creates the folder (and `tenants/`) readable by this user only, if missing; returns its real path. */
export function ensureTenantFolder(folder: TenantFolder): string {
  mkdirSync(folder.path, { recursive: true, mode: 0o700 });
  return realpathSync(folder.path);
}
