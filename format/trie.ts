/**
 * The trie of a dictionary's words, as the blob's `core.trie` section holds it, and the order of the word ids
 * (assembly/trie.ts reads both). The builder (dictionaries/blob-writer.ts) writes a blob's trie with it, and the
 * offline packs (engine/packs.ts) build the trie of the words they hold with it, so both give the core the same
 * records for the same words. No Node API here.
 */

/** Word order: UTF-16 code units, as the trie's children go by char (`flattenTrie`). */
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The order the core reads the words under a trie node in (assembly/trie.ts `collectSubtree`): the node's own word,
 * then its children's words, the last child's first (a word before the words it is a prefix of; at the first
 * character that differs, the greater first).
 */
export function byTrieReading(a: string, b: string): number {
  const common = Math.min(a.length, b.length);
  for (let i = 0; i < common; i++) {
    const d = b.charCodeAt(i) - a.charCodeAt(i);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** a growing list of i32 records */
class Records {
  data = new Int32Array(1024);
  length = 0;
  push(a: number, b: number, c: number, d: number): void {
    if (this.length + 4 > this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = a;
    this.data[this.length++] = b;
    this.data[this.length++] = c;
    this.data[this.length++] = d;
  }
}

/**
 * Flattens the vocabulary (`words[id]`) into trie records (first child, next sibling, char, word id; root 0),
 * nodes in breadth-first order, children by char. Built from the sorted words with no node objects: the nodes at
 * depth d, in that order, are the distinct prefixes of length d in sorted order (a parent's children are one
 * run, runs in their parents' order), so each depth is one pass over the words still longer than it. A node
 * object and a map per node cost ≈ 0.2 KB each, hundreds of megabytes for a national vocabulary.
 */
export function flattenTrie(words: readonly string[]): Int32Array {
  const out = new Records();
  out.push(-1, -1, 0, -1);
  const ids = [...words.keys()].filter((id) => words[id].length > 0).sort((a, b) => byText(words[a], words[b]));
  let live = Uint32Array.from(ids);
  // the node each live word has reached: the root before depth 1
  let reached = new Int32Array(live.length);
  for (let depth = 1; live.length > 0; depth++) {
    const node = new Int32Array(live.length);
    let parentBefore = -1;
    let charBefore = -1;
    let last = -1;
    let longer = 0;
    for (let k = 0; k < live.length; k++) {
      const word = words[live[k]];
      const parent = reached[k];
      const c = word.charCodeAt(depth - 1);
      if (parent !== parentBefore || c !== charBefore) {
        const id = out.length / 4;
        out.push(-1, -1, c, -1);
        if (parent !== parentBefore) out.data[parent * 4] = id;
        else out.data[last * 4 + 1] = id;
        [last, parentBefore, charBefore] = [id, parent, c];
      }
      node[k] = last;
      if (word.length === depth) out.data[last * 4 + 3] = live[k];
      else longer++;
    }
    // the words that go deeper, in the same order
    const nextLive = new Uint32Array(longer);
    const nextReached = new Int32Array(longer);
    for (let k = 0, j = 0; k < live.length; k++) {
      if (words[live[k]].length === depth) continue;
      nextLive[j] = live[k];
      nextReached[j++] = node[k];
    }
    live = nextLive;
    reached = nextReached;
  }
  return out.data.slice(0, out.length);
}

/** The words of trie records (`flattenTrie`'s), by word id: each word node's path from the root. */
export function trieWords(records: Int32Array, wordCount: number): string[] {
  const words = new Array<string>(wordCount).fill('');
  const stack: Array<[number, string]> = [[0, '']];
  while (stack.length > 0) {
    const [node, prefix] = stack.pop()!;
    const word = records[node * 4 + 3];
    if (word >= 0) words[word] = prefix;
    for (let child = records[node * 4]; child >= 0; child = records[child * 4 + 1]) {
      stack.push([child, prefix + String.fromCharCode(records[child * 4 + 2])]);
    }
  }
  return words;
}
