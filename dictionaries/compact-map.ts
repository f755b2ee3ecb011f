/**
 * `NumberMap`: uint32 key → float64 value, open addressing with linear probing in two typed arrays.
 * 12 bytes per slot at ≤ 50 % load, so ≈ 24 bytes per entry against ≈ 80 for a `Map<number, number>`;
 * used for the per-house params and the hierarchy (parent of every GAR object), which are tens of millions
 * of entries nationally. Key 0 is reserved as "empty" (GAR OBJECTIDs start at 1).
 */
export class NumberMap {
  private keys: Uint32Array;
  private values: Float64Array;
  size = 0;

  constructor(capacity = 1024) {
    let slots = 16;
    while (slots < capacity * 2) slots *= 2;
    this.keys = new Uint32Array(slots);
    this.values = new Float64Array(slots);
  }

  set(key: number, value: number): void {
    if (key <= 0 || key > 0xffffffff) throw new RangeError(`NumberMap key out of range: ${key}`);
    if ((this.size + 1) * 2 > this.keys.length) this.grow();
    const slot = this.find(key);
    if (this.keys[slot] === 0) {
      this.keys[slot] = key;
      this.size++;
    }
    this.values[slot] = value;
  }

  get(key: number): number | undefined {
    if (key <= 0 || key > 0xffffffff) return undefined;
    const slot = this.find(key);
    return this.keys[slot] === 0 ? undefined : this.values[slot];
  }

  has(key: number): boolean {
    return this.get(key) !== undefined;
  }

  private find(key: number): number {
    const mask = this.keys.length - 1;
    let slot = Math.imul(key, 0x9e3779b1) >>> 0 & mask;
    while (this.keys[slot] !== 0 && this.keys[slot] !== key) slot = (slot + 1) & mask;
    return slot;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldValues = this.values;
    this.keys = new Uint32Array(oldKeys.length * 2);
    this.values = new Float64Array(oldKeys.length * 2);
    this.size = 0;
    for (let i = 0; i < oldKeys.length; i++) if (oldKeys[i] !== 0) this.set(oldKeys[i], oldValues[i]);
  }
}
