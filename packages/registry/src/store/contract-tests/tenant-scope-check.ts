import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import type { Database } from '../database/schema.js';

/**
 * Tables addressed by content, not by tenant (an embedding by the hash of the text and the
 * model): no row belongs to one tenant, so no tenant condition applies.
 */
export const SHARED_TABLES = ['embedding_cache'] as const;
const shared = new Set<string>(SHARED_TABLES);

/** The column that holds the tenant, per table: a new table does not compile until it says. */
export const TENANT_COLUMN: {
  readonly [Table in Exclude<keyof Database, (typeof SHARED_TABLES)[number]>]: string;
} = {
  users: 'id',
  auth_configs: 'user_id',
  connected_accounts: 'user_id',
  mcp_connections: 'user_id',
  tool_catalog: 'user_id',
  thread_activations: 'user_id',
  secrets: 'user_id',
  usage_models: 'user_id',
  usage_tools: 'user_id',
  quota_counters: 'user_id',
  quota_thread_servers: 'user_id',
  user_quotas: 'user_id',
  tasks: 'user_id',
  task_events: 'user_id',
  task_admissions: 'user_id',
  rate_limits: 'user_id',
  registry_changes: 'user_id',
  audit_log: 'user_id',
  gateway_sessions: 'user_id',
  gateway_session_tools: 'user_id',
  gateway_session_admissions: 'user_id',
};

/** One statement as the check saw it: which tenants it is scoped to, and what is wrong. */
export interface ScopedStatement {
  readonly kind: string;
  readonly tables: readonly string[];
  /** The values its tenant conditions compare with (or insert). */
  readonly tenants: readonly unknown[];
  /** Empty when every tenant table it touches is scoped. */
  readonly problems: readonly string[];
}

type Node = OperationNode & Record<string, unknown>;
interface TableReference {
  readonly table: string;
  readonly alias: string | undefined;
}

const STATEMENTS = new Set(['SelectQueryNode', 'UpdateQueryNode', 'DeleteQueryNode']);

/**
 * Checks a query tree, nested statements included: every SELECT, UPDATE and DELETE must have,
 * among the AND-ed conditions of its WHERE, `<tenant column> = <value>` for each table it reads
 * or changes (a condition under OR scopes nothing); every INSERT must set the tenant column,
 * and its ON CONFLICT target must include it. Raw SQL cannot be checked, so it is a problem.
 */
export function checkTenantScope(root: OperationNode): ScopedStatement[] {
  const found: ScopedStatement[] = [];
  walk(root, (node) => {
    if (node.kind === 'RawNode' && node === root)
      found.push({ kind: 'RawNode', tables: [], tenants: [], problems: ['raw SQL: unchecked'] });
    else if (STATEMENTS.has(node.kind)) found.push(checkFiltered(node));
    else if (node.kind === 'InsertQueryNode') found.push(checkInsert(node));
  });
  return found;
}

/** A kysely plugin recording {@link checkTenantScope} for every query run through it. */
export class TenantScopeRecorder implements KyselyPlugin {
  readonly statements: ScopedStatement[] = [];

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.statements.push(...checkTenantScope(args.node));
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

function checkFiltered(node: Node): ScopedStatement {
  const references = [
    ...tablesOf(node.kind === 'UpdateQueryNode' ? node.table : undefined),
    ...tablesOf((node.from as Node | undefined)?.froms),
    ...tablesOf((node.using as Node | undefined)?.tables),
    ...tablesOf(((node.joins as Node[] | undefined) ?? []).map((join) => join.table)),
  ];
  const conditions = conjuncts((node.where as Node | undefined)?.where as Node | undefined);
  const tenants: unknown[] = [];
  const problems: string[] = [];
  for (const reference of references) {
    if (shared.has(reference.table)) continue;
    const column = tenantColumn(reference.table);
    if (column === undefined) {
      problems.push(`${reference.table} is not a known tenant table`);
      continue;
    }
    const name = reference.alias ?? reference.table;
    const scoped = conditions.find(
      (condition) =>
        condition.column === column &&
        (condition.table === name || (condition.table === undefined && references.length === 1)),
    );
    if (scoped === undefined)
      problems.push(`${kindName(node)} on ${reference.table} without ${column} = ? in its WHERE`);
    else tenants.push(scoped.value);
  }
  return {
    kind: node.kind,
    tables: references.map((r) => r.table),
    tenants,
    problems,
  };
}

function checkInsert(node: Node): ScopedStatement {
  const [reference] = tablesOf(node.into);
  const table = reference?.table ?? '?';
  const column = tenantColumn(table);
  const problems: string[] = [];
  const tenants: unknown[] = [];
  if (shared.has(table)) return { kind: node.kind, tables: [table], tenants, problems };
  if (column === undefined) problems.push(`${table} is not a known tenant table`);
  else {
    const columns = ((node.columns as Node[] | undefined) ?? []).map(columnName);
    const at = columns.indexOf(column);
    if (at === -1) problems.push(`INSERT into ${table} does not set ${column}`);
    for (const row of ((node.values as Node | undefined)?.values as Node[] | undefined) ?? []) {
      const value = (row.values as unknown[])[at];
      tenants.push(row.kind === 'ValueListNode' ? (value as Node | undefined)?.value : value);
    }
    const conflict = node.onConflict as Node | undefined;
    if (
      conflict !== undefined &&
      !((conflict.columns as Node[]) ?? []).some((c) => columnName(c) === column)
    )
      problems.push(`INSERT into ${table} ON CONFLICT without ${column} in its target`);
  }
  return { kind: node.kind, tables: [table], tenants, problems };
}

// The conditions AND-ed at the top of a WHERE that compare a column with a value.
function conjuncts(
  node: Node | undefined,
): { table: string | undefined; column: string; value: unknown }[] {
  if (node === undefined) return [];
  if (node.kind === 'AndNode')
    return [...conjuncts(node.left as Node), ...conjuncts(node.right as Node)];
  if (node.kind === 'ParensNode') return conjuncts(node.node as Node);
  if (node.kind !== 'BinaryOperationNode') return [];
  const left = node.leftOperand as Node;
  const right = node.rightOperand as Node;
  if ((node.operator as Node).operator !== '=' || left.kind !== 'ReferenceNode') return [];
  if (right.kind !== 'ValueNode' || (left.column as Node).kind !== 'ColumnNode') return [];
  const table = left.table as Node | undefined;
  return [
    {
      table: table === undefined ? undefined : tableName(table),
      column: columnName(left.column as Node),
      value: right.value,
    },
  ];
}

function tablesOf(nodes: unknown): TableReference[] {
  if (nodes === undefined) return [];
  if (Array.isArray(nodes)) return nodes.flatMap((node: unknown) => tablesOf(node));
  const node = nodes as Node;
  if (node.kind === 'ListNode') return tablesOf(node.items);
  if (node.kind === 'TableNode') return [{ table: tableName(node), alias: undefined }];
  if (node.kind === 'AliasNode' && (node.node as Node).kind === 'TableNode')
    return [{ table: tableName(node.node as Node), alias: (node.alias as Node).name as string }];
  // A subquery or anything else in FROM: its own statement is checked where the walk finds it.
  return [];
}

function tableName(node: Node): string {
  return ((node.table as Node).identifier as Node).name as string;
}

function columnName(node: Node): string {
  return (node.column as Node).name as string;
}

function tenantColumn(table: string): string | undefined {
  return Object.hasOwn(TENANT_COLUMN, table)
    ? TENANT_COLUMN[table as keyof typeof TENANT_COLUMN]
    : undefined;
}

function kindName(node: Node): string {
  return node.kind.replace('QueryNode', '').toUpperCase();
}

function walk(node: unknown, visit: (node: Node) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, visit);
    return;
  }
  if (typeof node !== 'object' || node === null || typeof (node as Node).kind !== 'string') return;
  visit(node as Node);
  for (const value of Object.values(node)) walk(value, visit);
}
