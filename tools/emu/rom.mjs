/**
 * A stand-in for the RP2040 boot ROM, for rp2040js.
 *
 * Why: the real ROM is Raspberry Pi's binary, not ours to ship, and the official CircuitPython
 * firmware only needs a small part of it: the well-known header at 0x10-0x19, the lookup tables,
 * the bit/memory/flash functions and the soft-float (SF) and soft-double (SD) tables that pico-sdk
 * looks up at start-up, plus a reset path into the firmware's boot2. This module writes such a ROM
 * (version 3, as on B2 silicon) into `rp2040.bootrom`. The table lookup function and the debug
 * trampoline are real Thumb code; every other function is a 4-byte stub `bkpt #n; bx lr` whose
 * breakpoint `handleBreak(n)` serves in JavaScript, on r0-r3 and memory.
 *
 * What decides the contents (pico-sdk 2.2.0, as pinned by CircuitPython 10.0.3):
 *   - pico_bit_ops / pico_mem_ops look up P3 L3 T3 R3 and MS MC S4 C4 (rom_funcs_lookup);
 *   - hardware_flash uses IF EX RE RP FC (and CX); pico_bootrom's reset_usb_boot uses UB;
 *   - pico_float / pico_double read rp2040_rom_version() (byte 0x13) and, for version >= 2, copy
 *     32 words from the 'SF' and 'SD' data entries (the table size byte sits 2 bytes before SF,
 *     also reachable as 'FZ'); for version 3 the SD entry 0x48 is dsincos (sin in r0:r1, cos in
 *     r2:r3), and sincosf calls the SF fsin entry expecting cos in r1; both tables call L3 (clz).
 * Numerics follow the ROM's documented behaviour: round-to-nearest-even, no denormals (read as
 * zero, never produced), NaNs read as infinities of their sign, inf-inf = +inf, 0*inf = inf,
 * 0/0 = inf/inf = inf, sqrt(x<0) = ln(x<=0) = -inf, conversions to integers round towards -inf
 * and saturate. Scientific functions use JS Math (at least as accurate as the ROM's CORDIC).
 * Not provided, as nothing in CircuitPython uses them: wait_for_vector ('WV', core 1 only; rp2040js
 * has one core) and the float library bounds ('FS' 'FE' 'DS' 'DE', for copying the code to RAM).
 *
 * `rom.cycles` accumulates an estimate of the cycles the real ROM would have spent; the caller
 * reads and resets it. Flash erase/program cost nothing here (the caller prices flash).
 * After install(), start the core from the ROM's reset vector with rp2040.core.reset() (note that
 * rp2040.reset() also wipes flash): the reset stub copies boot2 from flash to SRAM and enters it,
 * as the real ROM's flash boot does.
 */

export const ROM_VERSION = 3;
const SRAM = 0x20000000;
const SRAM_END = 0x20042000;
const BOOT2 = SRAM_END - 256;

// ---- IEEE helpers -------------------------------------------------------------------------
const dv = new DataView(new ArrayBuffer(8));
const f32 = (b) => (dv.setUint32(0, b, true), dv.getFloat32(0, true));
const bitsF = (x) => (dv.setFloat32(0, x, true), dv.getUint32(0, true));
const f64 = (lo, hi) => (dv.setUint32(0, lo, true), dv.setUint32(4, hi, true), dv.getFloat64(0, true));
const MIN_F = 2 ** -126;
const MIN_D = 2 ** -1022;
const UP_PACK = MIN_F - 2 ** -150; // packx/fmul/double2float: a 24-bit mantissa of all ones rounds up
const isNeg = (x) => x < 0 || Object.is(x, -0);

/** An operand as the ROM reads it: denormals are zero, NaNs are infinities (sign kept). */
function fin(b) {
  const e = (b >>> 23) & 0xff;
  if (e === 0) return b >>> 31 ? -0 : 0;
  if (e === 255) return b >>> 31 ? -Infinity : Infinity;
  return f32(b);
}
function din(lo, hi) {
  const e = (hi >>> 20) & 0x7ff;
  if (e === 0) return hi >>> 31 ? -0 : 0;
  if (e === 0x7ff) return hi >>> 31 ? -Infinity : Infinity;
  return f64(lo, hi);
}

/**
 * Round a real result to float bits as the ROM packs it: nearest-even, overflow to infinity, and
 * no denormals: below the smallest normal the result is the smallest normal if at least `up`,
 * else zero (signed, or +0 for the routines built on the ROM's `packx`).
 */
function packF(v, up, signedZero) {
  const a = Math.abs(v);
  if (a >= MIN_F || a !== a) return bitsF(v);
  if (a >= up) return bitsF(v < 0 ? -MIN_F : MIN_F);
  return signedZero && isNeg(v) ? 0x80000000 : 0;
}
/** Doubles: magnitudes below the smallest normal become a zero of the same sign. */
const packD = (v) => (Math.abs(v) < MIN_D ? (isNeg(v) ? -0 : 0) : v);

/** x * 2^n without spurious overflow in the power of two. */
function ldexp(x, n) {
  n = Math.max(-2200, Math.min(2200, n));
  while (n > 1000) { x *= 2 ** 1000; n -= 1000; }
  while (n < -1000) { x *= 2 ** -1000; n += 1000; }
  return x * 2 ** n;
}

/**
 * floor(x * 2^n) saturated to [lo, hi] (BigInt bounds for 64-bit results); zero and denormals
 * give 0, infinities and NaNs saturate by sign (`neg` is the sign bit).
 */
function toFix(x, cls, neg, n, lo, hi) {
  if (cls === 0) return typeof lo === 'bigint' ? 0n : 0;
  if (cls === 2) return neg ? lo : hi;
  let v = Math.floor(ldexp(x, n));
  if (v === 0 && x < 0) v = -1; // the exact floor of a negative number is never 0
  if (typeof lo === 'bigint') {
    if (!Number.isFinite(v)) return v < 0 ? lo : hi;
    v = BigInt(v);
  }
  return v < lo ? lo : v > hi ? hi : v;
}
const fcls = (b) => { const e = (b >>> 23) & 0xff; return e === 0 ? 0 : e === 255 ? 2 : 1; };
const dcls = (hi) => { const e = (hi >>> 20) & 0x7ff; return e === 0 ? 0 : e === 0x7ff ? 2 : 1; };

/** Round a non-negative BigInt to p significant bits (nearest-even), as a Number. */
function roundBig(m, p) {
  const bits = m.toString(2).length;
  if (bits <= p) return Number(m);
  const sh = BigInt(bits - p);
  let q = m >> sh;
  const rem = m - (q << sh), half = 1n << (sh - 1n);
  if (rem > half || (rem === half && (q & 1n))) q += 1n;
  return Number(q) * 2 ** (bits - p);
}

/**
 * Compare two values as sign and magnitude (high word, then low word), as the ROM's fcmp/dcmp
 * do: -1, 0 or 1, with +0 == -0 and NaNs ordered beyond infinity by their bits.
 */
function cmpSM(sa, ha, la, sb, hb, lb) {
  if (sa !== sb) return (ha | la | hb | lb) === 0 ? 0 : sa ? -1 : 1;
  const c = ha !== hb ? (ha < hb ? -1 : 1) : la !== lb ? (la < lb ? -1 : 1) : 0;
  return sa ? -c : c;
}

const clz32 = Math.clz32;
/** The ROM's packx normalises one bit per loop pass (~5 cycles): int->float cost grows with clz. */
const packCycles = (mag) => (mag ? 30 + 5 * clz32(mag >>> 0) : 30);

// ---- The ROM image --------------------------------------------------------------------------
const code = (s) => s.charCodeAt(0) | (s.charCodeAt(1) << 8);
const A = {
  LOOKUP: 0x20, TRAMPOLINE: 0x40, TRAMPOLINE_END: 0x46, DEAD: 0x4c, NMI: 0x50,
  GIT_REV: 0x54, COPYRIGHT: 0x58, FUNC_TABLE: 0x90, DATA_TABLE: 0xd8, STUBS: 0x100,
  SF: 0x300, SD: 0x380,
};
const BKPT = 0xbe00, BX_LR = 0x4770, WFI = 0xbf30;
const branch = (from, to) => 0xe000 | (((to - from - 4) >> 1) & 0x7ff);

export class Rom {
  constructor(rp2040, { onErase = () => {}, onProgram = () => {}, onUsbBoot = () => {} } = {}) {
    this.rp2040 = rp2040;
    this.onErase = onErase;
    this.onProgram = onProgram;
    this.onUsbBoot = onUsbBoot;
    /** Estimated cycles of ROM work so far; the caller reads and resets it. */
    this.cycles = 0;
    /** Set when the firmware asked for BOOTSEL (reset_usb_boot) or no valid boot2 was found. */
    this.usbBoot = null;
    this.byCode = []; // bkpt number -> { addr, name, run }
    this.addr = {}; // name -> stub address (for tests and debugging)
  }

  install() {
    this.r = this.rp2040.core.registers;
    const img = new Uint8Array(this.rp2040.bootrom.length * 4);
    const v = new DataView(img.buffer);
    const h = (a, x) => v.setUint16(a, x, true);
    const w = (a, x) => v.setUint32(a, x >>> 0, true);
    const halfs = (a, xs) => xs.forEach((x, i) => h(a + 2 * i, x));

    // rom_table_lookup(uint16_t *table, uint32_t code): walk (code, pointer) pairs up to code 0.
    halfs(A.LOOKUP, [
      0x8802, // 1: ldrh r2, [r0]
      0x2a00, //    cmp  r2, #0
      0xd005, //    beq  2f
      0x8843, //    ldrh r3, [r0, #2]
      0x3004, //    adds r0, #4
      0x428a, //    cmp  r2, r1
      0xd1f8, //    bne  1b
      0x0018, //    movs r0, r3
      BX_LR,
      0x2000, // 2: movs r0, #0
      BX_LR,
    ]);
    // debug_trampoline: call r7 with r0-r3, then stop at bkpt #0 (a debugger's breakpoint, not ours).
    halfs(A.TRAMPOLINE, [0x2601 /* movs r6,#1 */, 0x4337 /* orrs r7,r6 */, 0x47b8 /* blx r7 */,
      BKPT /* bkpt #0 */, branch(A.TRAMPOLINE + 8, A.TRAMPOLINE)]);
    halfs(A.DEAD, [WFI, branch(A.DEAD + 2, A.DEAD)]); // hang: hard faults, BOOTSEL requests
    h(A.NMI, BX_LR); // an NMI before the firmware sets VTOR just returns
    w(A.GIT_REV, 0); // no Raspberry Pi revision to claim
    const text = 'RP2040 ROM stand-in (rp2040js); not Raspberry Pi code';
    for (let i = 0; i < text.length; i++) img[A.COPYRIGHT + i] = text.charCodeAt(i);
    const fits = (what, end, limit) => { if (end > limit) throw new Error(`ROM layout: ${what} overflows`); };
    fits('copyright', A.COPYRIGHT + text.length + 1, A.FUNC_TABLE);

    // Stubs. Each gets its own bkpt number (0x20 up) and is checked against its address on a break.
    let next = A.STUBS, n = 0x20;
    const stub = (name, cycles, run, returns = true) => {
      const addr = next;
      halfs(addr, [BKPT | n, returns ? BX_LR : branch(addr + 2, A.DEAD)]);
      this.byCode[n++] = { addr, name, run, cycles };
      this.addr[name] = addr;
      next += 4;
      return addr | 1;
    };

    w(0x00, SRAM_END); // initial SP, as the real ROM's _stacktop
    w(0x04, stub('reset', 0, () => this.#reset(), false));
    w(0x08, A.NMI | 1);
    w(0x0c, A.DEAD | 1);
    stub('flash_boot', 0, () => this.#flashBoot(), false);
    halfs(0x10, [code('Mu'), 0x01 | (ROM_VERSION << 8), A.FUNC_TABLE, A.DATA_TABLE, A.LOOKUP | 1, 0]);

    const funcs = [
      // cycles: the table in the ROM's bit_functions.S (average over uniform inputs)
      ['P3', stub('popcount32', 20, () => this.#ret(this.#popcount(this.r[0])))],
      ['R3', stub('reverse32', 22, () => this.#ret(this.#reverse(this.r[0])))],
      ['L3', stub('clz32', 13, () => this.#ret(clz32(this.r[0])))],
      ['T3', stub('ctz32', 12, () => this.#ret(this.#ctz(this.r[0])))],
      ['MS', stub('memset', 0, () => this.#memset(false))],
      ['S4', stub('memset4', 0, () => this.#memset(true))],
      ['MC', stub('memcpy', 0, () => this.#memcpy(false))],
      ['C4', stub('memcpy44', 0, () => this.#memcpy(true))],
      ['UB', stub('reset_usb_boot', 0, () => this.#usbBoot(this.r[0], this.r[1], 'reset_usb_boot'), false)],
      ['DT', A.TRAMPOLINE | 1],
      ['DE', A.TRAMPOLINE_END | 1],
      ['IF', stub('connect_internal_flash', 0, () => {})],
      ['EX', stub('flash_exit_xip', 0, () => {})],
      ['RE', stub('flash_range_erase', 0, () => this.#erase(this.r[0], this.r[1], this.r[2], this.r[3] & 0xff))],
      ['RP', stub('flash_range_program', 0, () => this.#program(this.r[0], this.r[1], this.r[2]))],
      ['FC', stub('flash_flush_cache', 0, () => {})],
      ['CX', stub('flash_enter_cmd_xip', 0, () => {})],
    ];
    funcs.forEach(([c, p], i) => { h(A.FUNC_TABLE + 4 * i, code(c)); h(A.FUNC_TABLE + 4 * i + 2, p); });
    h(A.FUNC_TABLE + 4 * funcs.length, 0);
    fits('function table', A.FUNC_TABLE + 4 * funcs.length + 2, A.DATA_TABLE);

    const [sf, sd] = this.#floatTables();
    img[A.SF - 2] = sf.length; // table size in words: the SDK asserts *((uint8_t *)SF - 2) * 4 >= 0x80
    sf.forEach(([name, cycles, run], i) => w(A.SF + 4 * i, stub(name, cycles, run)));
    sd.forEach(([name, cycles, run], i) => w(A.SD + 4 * i, stub(name, cycles, run)));
    fits('stubs', next, A.SF - 2);

    const data = [['GR', A.GIT_REV], ['CR', A.COPYRIGHT], ['SF', A.SF], ['SD', A.SD], ['FZ', A.SF - 2]];
    data.forEach(([c, p], i) => { h(A.DATA_TABLE + 4 * i, code(c)); h(A.DATA_TABLE + 4 * i + 2, p); });
    h(A.DATA_TABLE + 4 * data.length, 0);
    fits('data table', A.DATA_TABLE + 4 * data.length + 2, A.STUBS);

    const rom = this.rp2040.bootrom;
    for (let i = 0; i < rom.length; i++) rom[i] = v.getUint32(4 * i, true);
    return this;
  }

  /** Serve a breakpoint if it is one of our stubs; `code` is the bkpt immediate. */
  handleBreak(code) {
    const f = this.byCode[code];
    if (!f || ((this.rp2040.core.PC - 2) >>> 0) !== f.addr) return false;
    this.cycles += f.cycles;
    f.run();
    return true;
  }

  // ---- helpers on registers ----
  #ret(x) { this.r[0] = x; }
  #retD(x, i = 0) { dv.setFloat64(0, x, true); this.r[i] = dv.getUint32(0, true); this.r[i + 1] = dv.getUint32(4, true); }
  #ret64(big) { const u = BigInt.asUintN(64, BigInt(big)); this.r[0] = Number(u & 0xffffffffn); this.r[1] = Number(u >> 32n); }
  #u64(i) { return (BigInt(this.r[i + 1]) << 32n) | BigInt(this.r[i]); }
  #flags(res) { const c = this.rp2040.core; c.N = res < 0; c.Z = res === 0; c.C = true; c.V = false; }

  #popcount(x) { let n = 0; for (; x; x &= x - 1) n++; return n; }
  #reverse(x) {
    x = ((x >>> 1) & 0x55555555) | ((x & 0x55555555) << 1);
    x = ((x >>> 2) & 0x33333333) | ((x & 0x33333333) << 2);
    x = ((x >>> 4) & 0x0f0f0f0f) | ((x & 0x0f0f0f0f) << 4);
    x = ((x >>> 8) & 0x00ff00ff) | ((x & 0x00ff00ff) << 8);
    return ((x >>> 16) | (x << 16)) >>> 0;
  }
  #ctz(x) { return x === 0 ? 32 : 31 - clz32(x & -x); }

  // ---- memory ----
  /** [array, offset] when [addr, addr+n) is plain SRAM (or, for reads, XIP flash), else null. */
  #span(addr, n, write) {
    const { sram, flash } = this.rp2040;
    if (addr >= SRAM && addr + n <= SRAM + sram.length) return [sram, addr - SRAM];
    if (!write && addr >= 0x10000000 && addr < 0x14000000 && (addr & 0xffffff) + n <= flash.length) {
      return [flash, addr & 0xffffff];
    }
    return null;
  }
  #slow(n) { if (n > 1 << 24) throw new Error(`ROM mem function: ${n} bytes outside RAM`); }

  #memset(word) {
    const [dst, c, n] = [this.r[0], this.r[1] & 0xff, this.r[2]];
    // 16 bytes per 8-cycle stmia loop pass; short fills use a computed jump into strb's.
    this.cycles += n < 8 && !word ? 10 + 2 * n : (word ? 20 : 28) + (n >>> 1);
    const s = this.#span(dst, n, true);
    if (s) s[0].fill(c, s[1], s[1] + n);
    else { this.#slow(n); for (let i = 0; i < n; i++) this.rp2040.writeUint8(dst + i, c); }
  }

  #memcpy(aligned) {
    const [dst, src, n] = [this.r[0], this.r[1], this.r[2]];
    // co-aligned: 13 cycles per 16 bytes (ldmia/stmia); otherwise a 7-cycle byte loop.
    if (n < 8) this.cycles += 10 + 4 * n;
    else if (aligned || ((dst - src) & 3) === 0) this.cycles += 30 + ((13 * n) >>> 4);
    else this.cycles += 8 + 7 * n;
    const d = this.#span(dst, n, true), s = this.#span(src, n, false);
    if (d && s) d[0].set(s[0].subarray(s[1], s[1] + n), d[1]);
    else {
      this.#slow(n);
      for (let i = 0; i < n; i++) this.rp2040.writeUint8(dst + i, this.rp2040.readUint8(src + i));
    }
  }

  // ---- flash (offsets into the flash device; the chip sees 24 address bits) ----
  #erase(addr, count, blockSize, blockCmd) {
    const { flash } = this.rp2040;
    addr &= 0xffffff;
    const goal = (addr + count) >>> 0; // uint32 arithmetic, as in the ROM
    let start = -1, end = 0;
    // As the ROM: a block erase where aligned and a whole block remains, else a 4 KiB sector erase
    // (of the sector containing addr).
    while (addr < goal && end - start < flash.length) {
      const big = blockSize && blockCmd && !(addr & (blockSize - 1)) && goal - addr >= blockSize;
      const size = big ? blockSize : 4096, base = addr & ~(size - 1) & 0xffffff;
      flash.fill(0xff, base, Math.min(base + size, flash.length));
      if (start < 0) start = base;
      end = base + size;
      addr += size;
    }
    if (start >= 0) this.onErase(start, end - start);
  }

  #program(addr, data, count) {
    const { flash, sram } = this.rp2040;
    addr &= 0xffffff;
    const goal = (addr + count) >>> 0, first = addr;
    const read = (i) => {
      const a = (data + i) >>> 0, o = a - SRAM;
      return o >= 0 && o < sram.length ? sram[o] : this.rp2040.readUint8(a);
    };
    // 256-byte page programs; a page program wraps within its page. NOR flash only clears bits.
    let i = 0;
    for (; addr < goal && i < flash.length; addr += 256) {
      for (let k = 0; k < 256; k++, i++) flash[(addr & ~0xff) | ((addr + k) & 0xff)] &= read(i);
    }
    if (i) this.onProgram(first, i);
  }

  // ---- boot ----
  #reset() {
    const rp = this.rp2040, wd = 0x40058000;
    const [s4, s5, s6, s7] = [0x1c, 0x20, 0x24, 0x28].map((o) => rp.readUint32(wd + o) >>> 0);
    // watchdog_reboot(pc, sp, ...) leaves this magic for the ROM to jump straight to pc.
    if (s4 === 0xb007c0d3 && ((s5 ^ s7) + s4) >>> 0 === 0) {
      rp.writeUint32(wd + 0x1c, 0);
      rp.core.SP = s6;
      rp.core.LR = this.addr.flash_boot | 1; // if it returns, boot from flash
      rp.core.PC = s7 & ~1;
      return;
    }
    this.#flashBoot();
  }

  /** Copy boot2 (256 bytes at flash offset 0, CRC-32 in its last word) to SRAM and enter it. */
  #flashBoot() {
    const { flash, sram, core } = this.rp2040;
    let crc = 0xffffffff;
    for (let i = 0; i < 252; i++) {
      crc ^= flash[i] << 24;
      for (let b = 0; b < 8; b++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
    }
    if (crc >>> 0 !== new DataView(flash.buffer).getUint32(252, true)) {
      this.#usbBoot(0, 0, 'no valid boot2 in flash');
      return;
    }
    sram.set(flash.subarray(0, 256), BOOT2 - SRAM);
    core.SP = BOOT2; // below boot2's copy
    core.LR = 0; // boot2 then vectors into the flash image's reset handler
    core.PC = BOOT2;
  }

  #usbBoot(gpioMask, disableMask, reason) {
    this.usbBoot = { gpioMask: gpioMask >>> 0, disableMask: disableMask >>> 0, reason };
    this.onUsbBoot(this.usbBoot);
    this.rp2040.core.PC = A.DEAD; // the ROM never returns from here; the caller decides what next
  }

  // ---- soft float / soft double tables (offsets as pico/bootrom/sf_table.h) ----
  #floatTables() {
    const r = this.r;
    const F = (i) => fin(r[i]);
    const D = (i) => din(r[i], r[i + 1]);
    const sgn = (a, b) => (a ^ b) >>> 31; // sign of a product/quotient from raw bits
    const inf = (s) => (s ? -Infinity : Infinity);

    const fadd = (a, b) => { const s = a + b; return packF(s !== s ? Infinity : s, MIN_F, true); };
    const dadd = (a, b) => { const s = a + b; return packD(s !== s ? Infinity : s); };
    const fcmp = (a, b) => cmpSM(a >>> 31, a & 0x7fffffff, 0, b >>> 31, b & 0x7fffffff, 0);
    const dcmp = (al, ah, bl, bh) => cmpSM(ah >>> 31, ah & 0x7fffffff, al, bh >>> 31, bh & 0x7fffffff, bl);
    // fcmp/dcmp "combined" first clear the mantissa of denormals and NaNs (to zero / infinity).
    const flushF = (b) => (fcls(b) === 1 ? b : b & 0xff800000);
    const dcmpFlushed = () => {
      const [al, ah] = dcls(r[1]) === 1 ? [r[0], r[1]] : [0, r[1] & 0xfff00000];
      const [bl, bh] = dcls(r[3]) === 1 ? [r[2], r[3]] : [0, r[3] & 0xfff00000];
      return dcmp(al, ah, bl, bh);
    };
    const cmpOut = (c) => { this.#flags(c); return c >>> 0; };

    // Scientific float arguments go through float2fix(x, 24): |x| >= 128 and inf/NaN saturate.
    const fArg = (b) => {
      const c = fcls(b), e = (b >>> 23) & 0xff;
      if (c === 0) return 0;
      if (c === 2 || e >= 127 + 7) return b >>> 31 ? -128 : 128 - 2 ** -24;
      return f32(b);
    };
    // Double sin/cos/tan reduce only |x| < 1024; beyond that (and for inf/NaN) the ROM sees angle 0.
    const dArg = (i) => { const e = (r[i + 1] >>> 20) & 0x7ff; return e === 0 || e >= 0x3ff + 10 ? 0 : D(i); };
    const sci = (x) => packF(x, UP_PACK, false);
    const fsincos = () => { const x = fArg(r[0]); r[0] = sci(Math.sin(x)); r[1] = sci(Math.cos(x)); };
    // ln of anything with the sign bit set (even -0) is -inf; +0 and denormals give -inf too.
    const ln = (x) => (isNeg(x) ? -Infinity : Math.log(x));

    // int -> float rounds once (24 bits, nearest-even), then packs like packx.
    const i2f = (x, n) => packF(ldexp(x, -n), UP_PACK, false);
    const big2f = (m) => (m < 0n ? -roundBig(-m, 24) : roundBig(m, 24));
    // float/double -> int: the argument comes from r0 (float) or r0:r1 (double), n from the next register.
    const I32 = [-(2 ** 31), 2 ** 31 - 1], U32 = [0, 2 ** 32 - 1];
    const I64 = [-(2n ** 63n), 2n ** 63n - 1n], U64 = [0n, 2n ** 64n - 1n];
    const fromF = (n, [lo, hi]) => (lo === 0 || lo === 0n) && r[0] >>> 31 ? lo
      : toFix(f32(r[0]), fcls(r[0]), r[0] >>> 31, n | 0, lo, hi);
    const fromD = (n, [lo, hi]) => (lo === 0 || lo === 0n) && r[1] >>> 31 ? lo
      : toFix(f64(r[0], r[1]), dcls(r[1]), r[1] >>> 31, n | 0, lo, hi);
    const s64 = () => BigInt.asIntN(64, this.#u64(0));

    // [name, cycles, body], in table order. Cycles: the main path of each routine in the published
    // ROM source (raspberrypi/pico-bootrom-rp2040, tag b2: mufplib.S, mufplib-double.S) counted at
    // Cortex-M0+ timings (ALU and muls 1, load/store and taken branch 2, push/ldm/stm 1+N, pop pc
    // 3+N, hardware divide ~8), without the caller's call; the datasheet's averages for
    // double2ufix64 (52) and double2float (23) agree. The CORDIC routines (sin, exp, ...) iterate
    // 12-32 steps of ~25-45 cycles. packx-based int->float normalise one bit per pass.
    const sf = [
      ['fadd', 70, () => this.#ret(fadd(F(0), F(1)))],
      ['fsub', 73, () => this.#ret(fadd(F(0), -F(1)))],
      ['fmul', 58, () => { const p = F(0) * F(1); this.#ret(packF(p !== p ? inf(sgn(r[0], r[1])) : p, UP_PACK, true)); }],
      ['fdiv', 72, () => { const q = F(0) / F(1); this.#ret(packF(q !== q ? inf(sgn(r[0], r[1])) : q, MIN_F - 2 ** -151, true)); }],
      ['fcmp_fast', 15, () => this.#ret(cmpOut(fcmp(r[0], r[1])))],
      ['fcmp_fast_flags', 15, () => this.#ret(cmpOut(fcmp(r[0], r[1])))],
      ['fsqrt', 65, () => { const a = F(0); this.#ret(a < 0 ? 0xff800000 : bitsF(Math.sqrt(a))); }],
      ['float2int', 38, () => this.#ret(fromF(0, I32))],
      ['float2fix', 38, () => this.#ret(fromF(r[1], I32))],
      ['float2uint', 35, () => this.#ret(fromF(0, U32))],
      ['float2ufix', 35, () => this.#ret(fromF(r[1], U32))],
      ['int2float', 0, () => { this.cycles += packCycles(Math.abs(r[0] | 0)); this.#ret(i2f(r[0] | 0, 0)); }],
      ['fix2float', 0, () => { this.cycles += packCycles(Math.abs(r[0] | 0)); this.#ret(i2f(r[0] | 0, r[1] | 0)); }],
      ['uint2float', 0, () => { this.cycles += packCycles(r[0] >>> 1); this.#ret(i2f(r[0], 0)); }],
      ['ufix2float', 0, () => { this.cycles += packCycles(r[0] >>> 1); this.#ret(i2f(r[0], r[1] | 0)); }],
      ['fcos', 465, () => { fsincos(); r[0] = r[1]; }],
      ['fsin', 460, fsincos], // cos is left in r1: the SDK's sincosf relies on it
      ['ftan', 530, () => { const x = fArg(r[0]); this.#ret(packF(Math.tan(x), MIN_F - 2 ** -151, true)); }],
      ['fsincos', 460, fsincos],
      ['fexp', 490, () => this.#ret(sci(Math.exp(fArg(r[0]))))],
      ['fln', 600, () => this.#ret(sci(ln(F(0))))],
      ['fcmp_combined', 27, () => this.#ret(cmpOut(fcmp(flushF(r[0]), flushF(r[1]))))],
      ['fatan2', 550, () => this.#ret(packF(Math.atan2(F(0), F(1)), UP_PACK, true))],
      ['int642float', 60, () => this.#ret(i2f(big2f(s64()), 0))],
      ['fix642float', 60, () => this.#ret(i2f(big2f(s64()), r[2] | 0))],
      ['uint642float', 60, () => this.#ret(i2f(big2f(this.#u64(0)), 0))],
      ['ufix642float', 60, () => this.#ret(i2f(big2f(this.#u64(0)), r[2] | 0))],
      ['float2int64', 45, () => this.#ret64(fromF(0, I64))],
      ['float2fix64', 45, () => this.#ret64(fromF(r[1], I64))],
      ['float2uint64', 45, () => this.#ret64(fromF(0, U64))],
      ['float2ufix64', 45, () => this.#ret64(fromF(r[1], U64))],
      ['float2double', 15, () => this.#retD(F(0))], // denormal -> signed 0, NaN -> inf
    ];
    const sd = [
      ['dadd', 85, () => this.#retD(dadd(D(0), D(2)))],
      ['dsub', 90, () => this.#retD(dadd(D(0), -D(2)))],
      ['dmul', 160, () => { const p = D(0) * D(2); this.#retD(packD(p !== p ? inf(sgn(r[1], r[3])) : p)); }],
      ['ddiv', 190, () => { const q = D(0) / D(2); this.#retD(packD(q !== q ? inf(sgn(r[1], r[3])) : q)); }],
      ['dcmp_fast', 20, () => this.#ret(cmpOut(dcmp(r[0], r[1], r[2], r[3])))],
      ['dcmp_fast_flags', 20, () => this.#ret(cmpOut(dcmp(r[0], r[1], r[2], r[3])))],
      ['dsqrt', 200, () => { const a = D(0); this.#retD(a < 0 ? -Infinity : Math.sqrt(a)); }],
      ['double2int', 60, () => this.#ret(fromD(0, I32))],
      ['double2fix', 60, () => this.#ret(fromD(r[2], I32))],
      ['double2uint', 60, () => this.#ret(fromD(0, U32))],
      ['double2ufix', 60, () => this.#ret(fromD(r[2], U32))],
      ['int2double', 35, () => this.#retD(r[0] | 0)],
      ['fix2double', 35, () => this.#retD(packD(ldexp(r[0] | 0, -(r[1] | 0))))],
      ['uint2double', 35, () => this.#retD(r[0])],
      ['ufix2double', 35, () => this.#retD(packD(ldexp(r[0], -(r[1] | 0))))],
      ['dcos', 1600, () => this.#retD(packD(Math.cos(dArg(0))))],
      ['dsin', 1600, () => this.#retD(packD(Math.sin(dArg(0))))],
      ['dtan', 1870, () => this.#retD(packD(Math.tan(dArg(0))))],
      ['dsincos', 1680, () => { const x = dArg(0); this.#retD(packD(Math.sin(x))); this.#retD(packD(Math.cos(x)), 2); }],
      ['dexp', 760, () => this.#retD(packD(Math.exp(D(0))))],
      ['dln', 850, () => this.#retD(packD(ln(D(0))))],
      ['dcmp_combined', 32, () => this.#ret(cmpOut(dcmpFlushed()))],
      ['datan2', 1600, () => this.#retD(packD(Math.atan2(D(0), D(2))))],
      ['int642double', 45, () => this.#retD(packD(Number(s64())))],
      ['fix642double', 45, () => this.#retD(packD(ldexp(Number(s64()), -(r[2] | 0))))],
      ['uint642double', 45, () => this.#retD(packD(Number(this.#u64(0))))],
      ['ufix642double', 45, () => this.#retD(packD(ldexp(Number(this.#u64(0)), -(r[2] | 0))))],
      ['double2int64', 52, () => this.#ret64(fromD(0, I64))],
      ['double2fix64', 52, () => this.#ret64(fromD(r[2], I64))],
      ['double2uint64', 52, () => this.#ret64(fromD(0, U64))],
      ['double2ufix64', 52, () => this.#ret64(fromD(r[2], U64))],
      ['double2float', 23, () => this.#ret(packF(D(0), UP_PACK, true))],
    ];
    return [sf, sd];
  }
}
