/** Absolute path of the CC-CEDICT file (`cedict_ts.u8` format: one entry a line). */
export declare const cedictPath: string;

/** What the data is and under which terms it may be used. */
export declare const attribution: Readonly<{
  name: string;
  publisher: string;
  licence: string;
  licenceUrl: string;
  source: string;
}>;
