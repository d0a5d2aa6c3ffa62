type TypedArray = Float64Array | Int32Array | Uint8Array;

/**
 * A column of numbers of unknown final length, filled one value at a time into fixed-size chunks
 * (no doubling: at most one chunk of slack) and joined once at the end (internal to the parsers).
 */
export class TypedColumn<T extends TypedArray> {
  private readonly chunks: T[] = [];
  private current: T;
  private used = 0;
  /** Number of values pushed. */
  length = 0;

  constructor(
    private readonly make: (length: number) => T,
    private readonly chunkLength = 1 << 16,
  ) {
    this.current = make(chunkLength);
  }

  /** Appends a value. */
  push(value: number): void {
    if (this.used === this.current.length) {
      this.chunks.push(this.current);
      this.current = this.make(this.chunkLength);
      this.used = 0;
    }
    this.current[this.used++] = value;
    this.length++;
  }

  /** The values in one array of exactly `length` entries; the chunks are released. */
  finish(): T {
    const out = this.make(this.length);
    let offset = 0;
    for (const chunk of this.chunks.splice(0)) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    out.set(this.current.subarray(0, this.used), offset);
    this.current = this.make(0);
    this.used = 0;
    return out;
  }
}
