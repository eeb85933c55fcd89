/**
 * The MicroPython heap of CircuitPython 10, read from the emulated RAM without symbols.
 *
 * CircuitPython's heap is a chain of areas (MICROPY_GC_SPLIT_HEAP_AUTO): the first one's
 * descriptor sits in mp_state_ctx, the others' at the start of blocks of the port's TLSF
 * heap, from which the VM grows. gc.mem_free() is the free blocks of every area plus the
 * largest block TLSF could still give (gc_get_max_new_split). Both structures are found
 * by what their pointers say about each other, so the probe needs no .elf:
 *   area:  next, alloc table, its length, finaliser table, collect table, pool start,
 *          pool end, last free index, last used block; the tables follow each other and
 *          the pool is 64 bytes (4 blocks of 16) per alloc-table byte.
 *   TLSF:  the control block's empty-list block (size 0) links to itself as next free,
 *          followed by its bit fields, its own size, the bitmap and the list pointers.
 * A collection ends by writing 0 into every area's last-free index, last area last
 * (gc_collect_end): the probe watches that word and reads the heap right then, which is
 * "free after a collection", the figure gc.mem_free() gives after gc.collect(). Other
 * writes of that 0 happen too (a few in a hundred samples, and they read lower than any
 * collection's): with the .elf the caller says instead when gc_collect_end returns
 * (byWrites false), which is exact. Each VM
 * (boot.py's, code.py's, the REPL's) sets the first area up again: its start is noted.
 */

const RAM = 0x20000000;
const RAM_END = 0x20042000;
const BLOCK = 16;

export class HeapProbe {
  constructor(mcu) {
    this.mcu = mcu;
    this.first = 0;            // the first area's descriptor, once found
    this.tlsf = 0;             // the TLSF control block, once found
    this.watched = new Set();  // addresses of every area's last-free index
    this.last = 0;             // the last area's last-free index
    this.pending = false;
    this.byWrites = true;      // false: the caller says when a collection has ended (the .elf)
    this.samples = [];         // [ns, free, largest block] after each collection
    this.starts = [];          // when each VM started (gc_init: the first area set up again)
    this.table = 0;            // the first area's alloc-table pointer, once found
    const write = mcu.writeUint32.bind(mcu);
    mcu.writeUint32 = (address, value) => {
      write(address, value);
      if (value === 0 && address === this.last && this.byWrites) this.pending = true;
      else if (address === this.table) this.starts.push(mcu.clock.nanos);
    };
  }

  word(address) { return this.mcu.sramView.getUint32(address - RAM, true); }

  inRam(p) { return p >= RAM && p < RAM_END; }

  isArea(a) {
    if (!this.inRam(a) || a + 36 > RAM_END) return false;
    const next = this.word(a), atb = this.word(a + 4), len = this.word(a + 8), ftb = this.word(a + 12);
    const ctb = this.word(a + 16), start = this.word(a + 20), end = this.word(a + 24);
    return (next === 0 || this.inRam(next)) && this.inRam(atb) && len > 0 && len < 0x4000 &&
      ftb >= atb + len && ftb <= atb + len + 4 && ctb === ftb + ((len * 4 + 7) >> 3) &&
      this.inRam(end) && start === end - len * 64 && start >= ctb;
  }

  isTlsf(c) {
    if (!this.inRam(c) || c + 36 > RAM_END) return false;
    const size = this.word(c + 20), sl = this.word(c + 28), lists = this.word(c + 32);
    return this.word(c + 8) === c && this.word(c) === 0 && this.word(c + 4) === 0 && size > 36 && size < 0x1000 &&
      sl > c && sl < c + size && lists > c && lists < c + size;
  }

  /** Look for the first area and the TLSF control block (after the VM has started). */
  find() {
    if (!(this.first && this.isArea(this.first))) {
      this.first = 0;
      for (let a = RAM; a < RAM_END - 36; a += 4) {
        // the first area is the one not at the start of its own region
        if (this.word(a + 4) !== a + 36 && this.isArea(a)) {
          this.first = a;
          this.table = a + 4;
          this.starts.push(this.mcu.clock.nanos);     // (found within a window of its start)
          break;
        }
      }
    }
    if (!(this.tlsf && this.isTlsf(this.tlsf))) {
      this.tlsf = 0;
      for (let c = RAM; c < RAM_END - 36; c += 4) {
        if (this.isTlsf(c)) { this.tlsf = c; break; }
      }
    }
    this.watch();
    return this.first !== 0;
  }

  areas() {
    const out = [];
    for (let a = this.first; a && out.length < 64 && this.isArea(a); a = this.word(a)) out.push(a);
    return out;
  }

  watch() {
    const areas = this.first ? this.areas() : [];
    this.last = areas.length ? areas[areas.length - 1] + 28 : 0;
  }

  /** [free bytes in the areas, the largest free run in bytes]. */
  areaFree() {
    let free = 0, largest = 0;
    const sram = this.mcu.sram;
    for (const a of this.areas()) {
      const atb = this.word(a + 4) - RAM, len = this.word(a + 8);
      let run = 0;
      for (let i = 0; i < len; i++) {
        const byte = sram[atb + i];
        for (let k = 0; k < 8; k += 2) {
          if (((byte >> k) & 3) === 0) {
            free += 1;
            run += 1;
            if (run > largest) largest = run;
          } else {
            run = 0;
          }
        }
      }
    }
    return [free * BLOCK, largest * BLOCK];
  }

  /** What TLSF could still give the VM for a new area (port_heap_get_largest_free_size). */
  tlsfFit() {
    const c = this.tlsf;
    if (!c) return 0;
    const fields = this.word(c + 16);
    const slCount = (fields >>> 14) & 0x3f, small = (fields >>> 23) & 0xff;
    let block = c + this.word(c + 20) - 4, largest = 0;
    for (let n = 0; n < 100000 && this.inRam(block + 8); n++) {
      const raw = this.word(block + 4), size = raw & ~3;
      if (size === 0) break;                          // the pool's sentinel
      if (raw & 1 && size > largest) largest = size;  // free
      block = block + size + 4;
    }
    if (largest === 0) return 0;
    if (largest < small) return (largest + 3) & ~3;
    const interval = (1 << (31 - Math.clz32(largest))) / (slCount || 32);
    return largest & ~(interval - 1);
  }

  /** After a collection: note free (as gc.mem_free()) and the largest block. */
  sample(ns) {
    this.pending = false;
    if (!this.isArea(this.first)) { this.find(); return; }
    // gc_collect_end zeroes every area's index, the last one last: a zero written by
    // gc_free into the last area alone is no collection
    if (this.areas().some((a) => this.word(a + 28) !== 0)) return;
    const [free, run] = this.areaFree();
    const fit = this.tlsfFit();
    this.samples.push([ns, free + fit, Math.max(run, fit)]);
    this.watch();
  }
}
