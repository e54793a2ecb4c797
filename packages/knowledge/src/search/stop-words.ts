// General English function words plus the filler of requests ("can you help me …") and of tool
// descriptions ("this tool allows …"). Built from grammar, not from any benchmark's queries.
const words = `a an the and or but if then else of to in on at by for with from into onto over under
about as is are was were be been being am do does did done doing have has had having can could
will would shall should may might must i me my mine we us our ours you your yours he him his she
her hers it its they them their theirs this that these those there here what which who whom whose
when where why how all any some each every no not only own same so than too very just also please
help want need like would let lets s t d ll m re ve y ok im id
able allow allows using use uses used via etc e g ie eg`;

// Chinese and Japanese function words and request filler ("请帮我…", "…してください"), from
// grammar: particles, pronouns, copulas, measure words, "according to", "use", "can".
const cjkWords = `的 了 着 过 在 是 和 与 或 及 以及 等 从 到 对 把 被 给 将 以 于 也 都 就 并 而 之 其 这 那
这个 那个 这些 那些 中 上 下 个 些 我 你 您 他 她 它 我们 你们 他们 们 请 吗 呢 吧 啊 让 要 会 能 可 可以
一个 一些 什么 如何 怎么 哪些 帮 帮我 需要 想 想要 用 使用 通过 根据 进行 如果 则 时 为 来 去 里 该 此 每
の に は を が で と も へ や か な ね よ た て だ し から まで より です ます する して した される ください
これ それ あれ この その あの こと もの ため よう`;

/** Words ignored in queries and documents. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `${words} ${cjkWords}`.split(/\s+/).filter((w) => w !== ''),
);
