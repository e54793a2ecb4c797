export {
  MemoryToolCallPool,
  type MemoryToolAnswer,
  type MemoryToolCall,
} from './memory-tool-call-pool.js';
export { MemoryToolApprovals } from '../links/changed-tool-link.js';
