// Harnesses for end-to-end tests and the benchmarks: a served stack with telemetry and the UI, and
// a cluster of built server processes on one PostgreSQL schema, and the small load balancer in
// front of one. Not part of the server's API.
export type { FixturePaths } from './fixture-paths.js';
export { startObservedServer, type ObservedServer } from './observed-server.js';
export {
  serverMain,
  startCluster,
  type Cluster,
  type ClusterOptions,
  type ServerProcess,
} from './server-cluster.js';
export { startBalancer, type Balancer, type ProbeStats } from './balancer.js';
