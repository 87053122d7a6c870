/** A growable `Int32Array`, for building postings without per-value allocation. */
export class IntBuffer {
  /** The storage; valid entries are `data[0 .. length)`. */
  data: Int32Array
  /** Entries written. */
  length = 0

  /**
   * @param capacity - initial capacity. Defaults to `1024`.
   */
  constructor(capacity = 1024) {
    this.data = new Int32Array(Math.max(16, capacity))
  }

  /**
   * Appends a value.
   * @param value - an int32
   */
  push(value: number): void {
    if (this.length === this.data.length) {
      this.grow(this.length + 1)
    }
    this.data[this.length++] = value
  }

  /**
   * Makes room for `capacity` entries in total.
   * @param capacity - the capacity needed
   */
  grow(capacity: number): void {
    if (capacity <= this.data.length) {
      return
    }
    let size = this.data.length * 2
    while (size < capacity) {
      size *= 2
    }
    const grown = new Int32Array(size)
    grown.set(this.data.subarray(0, this.length))
    this.data = grown
  }

  /** Forgets the entries, keeping the capacity. */
  clear(): void {
    this.length = 0
  }

  /** The entries written (a view, valid until the next write). */
  view(): Int32Array {
    return this.data.subarray(0, this.length)
  }
}
