// General English function words plus the filler of requests ("can you help me …") and of tool
// descriptions ("this tool allows …"). Built from grammar, not from any benchmark's queries.
const words = `a an the and or but if then else of to in on at by for with from into onto over under
about as is are was were be been being am do does did done doing have has had having can could
will would shall should may might must i me my mine we us our ours you your yours he him his she
her hers it its they them their theirs this that these those there here what which who whom whose
when where why how all any some each every no not only own same so than too very just also please
help want need like would let lets s t d ll m re ve y ok im id
able allow allows using use uses used via etc e g ie eg`;

/** Words ignored in queries and documents. */
export const STOP_WORDS: ReadonlySet<string> = new Set(words.split(/\s+/).filter((w) => w !== ''));
