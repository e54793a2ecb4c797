import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** A database handle or an open transaction; repositories accept either. */
export type Executor = Kysely<Database>;
