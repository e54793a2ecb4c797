export {
  MemoryToolCallPool,
  type MemoryToolAnswer,
  type MemoryToolCall,
} from './memory-tool-call-pool.js';
