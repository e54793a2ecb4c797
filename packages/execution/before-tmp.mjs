import { processObservation, readObservation } from './dist/index.js';
