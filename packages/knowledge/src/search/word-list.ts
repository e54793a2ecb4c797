/**
 * The single-word terms of an index, sorted, for prefix lookups: a plain array instead of a
 * tree of maps. Words added and removed since the last lookup are merged in and filtered out
 * at the next one, in one pass.
 */
export class WordList {
  #sorted: string[] = [];
  #added: string[] = [];
  #removed = false;

  /** Records a new word. */
  add(word: string): void {
    this.#added.push(word);
  }

  /** Records that some word is gone (the next lookup asks `alive` which). */
  removed(): void {
    this.#removed = true;
  }

  /** The live words starting with `prefix`, other than `prefix` itself, in sorted order. */
  withPrefix(prefix: string, alive: (word: string) => boolean): string[] {
    this.#settle(alive);
    const words = this.#sorted;
    let low = 0;
    let high = words.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (words[middle]! < prefix) low = middle + 1;
      else high = middle;
    }
    const found: string[] = [];
    for (let i = low; i < words.length && words[i]!.startsWith(prefix); i++)
      if (words[i] !== prefix) found.push(words[i]!);
    return found;
  }

  #settle(alive: (word: string) => boolean): void {
    if (this.#added.length === 0 && !this.#removed) return;
    const kept = this.#removed ? this.#sorted.filter(alive) : this.#sorted;
    const added = this.#added.filter(alive).sort();
    const merged: string[] = [];
    let i = 0;
    let j = 0;
    while (i < kept.length || j < added.length) {
      const next =
        j >= added.length || (i < kept.length && kept[i]! <= added[j]!) ? kept[i++]! : added[j++]!;
      // A word removed and added again before a lookup is in both lists once.
      if (merged[merged.length - 1] !== next) merged.push(next);
    }
    this.#sorted = merged;
    this.#added = [];
    this.#removed = false;
  }
}
