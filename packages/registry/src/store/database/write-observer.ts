import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

const WRITES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode']);

/**
 * A kysely plugin that calls `onWrite` after every insert, update or delete, whichever
 * repository ran it: what a cache of database reads needs to know that it may be stale.
 */
export class WriteObserver implements KyselyPlugin {
  readonly #writes = new WeakSet<object>();

  constructor(private readonly onWrite: () => void) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (WRITES.has(args.node.kind)) this.#writes.add(args.queryId);
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.#writes.has(args.queryId)) this.onWrite();
    return args.result;
  }
}
