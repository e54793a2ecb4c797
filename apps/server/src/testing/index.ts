export { alive, descendants } from './process-tree.js';
