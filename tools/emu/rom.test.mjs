// Self-test of the ROM stand-in (rom.mjs): run `node tools/emu/rom.test.mjs` from the repo root.
// Every function is reached the way pico-sdk reaches it: the lookup function whose address is the
// halfword at 0x18 is run on the emulated core with the table pointer from 0x14/0x16 and the
// SDK's code, then the function is called with r0-r3 set and LR pointing at a `bkpt` in SRAM.
// References are computed independently in JS (BigInt for exact conversions).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConsoleLogger, LogLevel, RP2040 } from 'rp2040js';
import { Rom } from './rom.mjs';

// ---- harness ----------------------------------------------------------------------------------
const STOP = 0x20000000; // bkpt #0xee: every call returns here
const hex = (x) => '0x' + (x >>> 0).toString(16);

function machine() {
  const mcu = new RP2040();
  mcu.logger = new ConsoleLogger(LogLevel.Error, false);
  const log = { erase: [], program: [], usb: [], foreign: [] };
  const rom = new Rom(mcu, {
    onErase: (o, n) => log.erase.push([o, n]),
    onProgram: (o, n) => log.program.push([o, n]),
    onUsbBoot: (u) => log.usb.push(u),
  }).install();
  let stopped = false;
  mcu.onBreak = (c) => {
    if (rom.handleBreak(c)) return;
    if (c === 0xee) stopped = true;
    else log.foreign.push(c), (stopped = true);
  };
  mcu.sram[0] = 0xee;
  mcu.sram[1] = 0xbe;
  const R = mcu.core.registers;
  /** Run the Thumb function at `fn` with r0-r3 = args (r7 too, if given); returns r0-r3. */
  function call(fn, args = [], r7) {
    assert.ok(fn & 1, `function pointer ${hex(fn)} lacks the Thumb bit`);
    for (let i = 0; i < 4; i++) R[i] = args[i] ?? 0;
    if (r7 !== undefined) R[7] = r7;
    mcu.core.SP = 0x20040000;
    mcu.core.LR = STOP | 1;
    mcu.core.PC = fn & ~1;
    stopped = false;
    for (let n = 0; n < 2000 && !stopped; n++) mcu.step();
    assert.ok(stopped, `call to ${hex(fn)} did not return`);
    return [R[0], R[1], R[2], R[3]];
  }
  const code = (s) => s.charCodeAt(0) | (s.charCodeAt(1) << 8); // ROM_TABLE_CODE(c1, c2)
  // rom_func_lookup / rom_data_lookup as in pico_bootrom/include/pico/bootrom.h (PICO_RP2040)
  const lookup = (table, c) => call(mcu.readUint16(0x18), [mcu.readUint16(table), code(c)])[0];
  const func = (c) => lookup(0x14, c);
  const data = (c) => lookup(0x16, c);
  return { mcu, rom, log, call, func, data, R };
}

const M = machine();
const { mcu, call, func, data } = M;
const SF = data('SF'), SD = data('SD');
const sf = (off) => mcu.readUint32(SF + off);
const sd = (off) => mcu.readUint32(SD + off);

// deterministic PRNG
let seed = 0x2040;
const rnd = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0);
};
const N = 300; // random cases per function

// IEEE bit helpers
const dv = new DataView(new ArrayBuffer(8));
const fb = (x) => (dv.setFloat32(0, x, true), dv.getUint32(0, true));
const bf = (b) => (dv.setUint32(0, b, true), dv.getFloat32(0, true));
const db = (x) => (dv.setFloat64(0, x, true), [dv.getUint32(0, true), dv.getUint32(4, true)]);
const bd = (lo, hi) => (dv.setUint32(0, lo, true), dv.setUint32(4, hi, true), dv.getFloat64(0, true));
const MINF = 2 ** -126, MIND = 2 ** -1022;
const fPosInf = 0x7f800000, fNegInf = 0xff800000, fNaN = 0x7fc00000, fNegNaN = 0xffc00000;
const [dInfLo, dInfHi] = [0, 0x7ff00000];

/** Random normal float bits; mostly moderate exponents, sometimes anywhere. */
const randF = (wide = true) => {
  const e = wide && rnd() % 4 === 0 ? 1 + (rnd() % 254) : 97 + (rnd() % 61);
  return ((rnd() & 0x80000000) | (e << 23) | (rnd() & 0x7fffff)) >>> 0;
};
const randD = (wide = true) => {
  const e = wide && rnd() % 4 === 0 ? 1 + (rnd() % 2046) : 0x3ff - 60 + (rnd() % 121);
  return [rnd(), ((rnd() & 0x80000000) | (e << 20) | (rnd() & 0xfffff)) >>> 0];
};
const fEq = (got, want, what) => assert.equal(hex(got), hex(want), what);
const signedZeroF = (neg) => (neg ? 0x80000000 : 0);

// exact float/double decoding for conversion references (normal numbers only)
const fParts = (b) => ({ neg: b >>> 31, m: BigInt((b & 0x7fffff) | 0x800000), e: ((b >>> 23) & 0xff) - 150 });
const dParts = (lo, hi) => ({
  neg: hi >>> 31, m: (BigInt((hi & 0xfffff) | 0x100000) << 32n) | BigInt(lo), e: ((hi >>> 20) & 0x7ff) - 1075,
});
/** floor(±m * 2^s) exactly. */
function floorScaled({ neg, m }, s) {
  if (s >= 0) return neg ? -(m << BigInt(s)) : m << BigInt(s);
  const d = BigInt(-s), q = m >> d, exact = q << d === m;
  return neg ? -(q + (exact ? 0n : 1n)) : q;
}
const clampB = (v, lo, hi) => (v < lo ? lo : v > hi ? hi : v);
const I32 = [-(2n ** 31n), 2n ** 31n - 1n], U32 = [0n, 2n ** 32n - 1n];
const I64 = [-(2n ** 63n), 2n ** 63n - 1n], U64 = [0n, 2n ** 64n - 1n];
const lohi = (v) => { const u = BigInt.asUintN(64, v); return [Number(u & 0xffffffffn), Number(u >> 32n)]; };
/** Round a non-negative BigInt to p significant bits, nearest-even. */
function roundP(m, p) {
  let e = 0;
  while (m >> BigInt(e) >= 1n << BigInt(p)) e++;
  const lower = m >> BigInt(e), twice = 2n * (m - (lower << BigInt(e))), ulp = 1n << BigInt(e);
  const q = twice > ulp || (twice === ulp && lower & 1n) ? lower + 1n : lower;
  return Number(q) * 2 ** e;
}

// ---- header, tables, lookups --------------------------------------------------------------------
test('header: magic, version 3, well-known pointers', () => {
  assert.deepEqual([0x10, 0x11, 0x12].map((a) => mcu.readUint8(a)), [0x4d, 0x75, 0x01]);
  assert.equal(mcu.readUint8(0x13), 3, 'rp2040_rom_version()');
  for (const a of [0x14, 0x16, 0x18]) assert.ok(mcu.readUint16(a) > 0x1a && mcu.readUint16(a) < 0x4000, hex(a));
  assert.equal(mcu.readUint16(0x18) & 1, 1, 'lookup pointer has the Thumb bit');
  assert.equal(mcu.readUint32(0) >>> 0, 0x20042000, 'initial SP');
  assert.equal(mcu.readUint32(4) & 1, 1, 'reset vector is Thumb');
});

test('every code the SDK looks up resolves (rom_func_lookup / rom_data_lookup)', () => {
  // pico_bit_ops, pico_mem_ops, hardware_flash, pico_bootrom (UB), debug trampoline
  for (const c of ['P3', 'R3', 'L3', 'T3', 'MS', 'S4', 'MC', 'C4', 'UB', 'IF', 'EX', 'RE', 'RP', 'FC', 'CX', 'DT', 'DE']) {
    const p = func(c);
    assert.ok(p !== 0 && p & 1 && p < 0x4000, `func ${c} -> ${hex(p)}`);
  }
  for (const c of ['SF', 'SD', 'GR', 'CR', 'FZ']) assert.ok(data(c) !== 0 && data(c) < 0x4000, `data ${c}`);
  for (const c of ['ZZ', 'EC', 'SR', 'GS']) assert.equal(func(c), 0, `unknown func ${c}`);
  assert.equal(data('XX'), 0);
  // float_init_rom_rp2040.c asserts *((uint8_t *)rom_table - 2) * 4 >= SF_TABLE_V2_SIZE (0x80)
  assert.ok(mcu.readUint8(SF - 2) * 4 >= 0x80);
  assert.equal(mcu.readUint8(data('FZ')), mcu.readUint8(SF - 2));
  for (let i = 0; i < 32; i++) {
    for (const [name, t] of [['SF', SF], ['SD', SD]]) {
      const p = mcu.readUint32(t + 4 * i) >>> 0;
      assert.ok(p & 1 && p < 0x4000, `${name}[${hex(4 * i)}] = ${hex(p)}`);
    }
  }
  let s = '';
  for (let a = data('CR'); mcu.readUint8(a); a++) s += String.fromCharCode(mcu.readUint8(a));
  assert.ok(s.length > 0, 'copyright string');
});

test('breakpoints outside the ROM stubs are not claimed', () => {
  const n = M.rom.byCode.findIndex(Boolean);
  mcu.sram[16] = n; mcu.sram[17] = 0xbe; // the same bkpt number, but in SRAM
  mcu.core.PC = STOP + 16;
  mcu.step();
  assert.equal(M.log.foreign.pop(), n);
  // debug_trampoline: calls r7, then stops at bkpt #0, which belongs to the debugger
  const r = call(func('DT'), [0xf0f0], func('P3'));
  assert.equal(r[0], 8);
  assert.equal(M.log.foreign.pop(), 0);
});

// ---- bit and memory functions -------------------------------------------------------------------
test('bit functions', () => {
  const ref = {
    P3: (x) => x.toString(2).replace(/0/g, '').length,
    R3: (x) => parseInt(x.toString(2).padStart(32, '0').split('').reverse().join(''), 2),
    L3: (x) => (x === 0 ? 32 : 31 - Math.floor(Math.log2(x))),
    T3: (x) => (x === 0 ? 32 : x.toString(2).length - 1 - x.toString(2).lastIndexOf('1')),
  };
  const vals = [0, 1, 2, 0x80000000, 0xffffffff, 0x7fffffff, 0x00010000];
  for (let i = 0; i < N; i++) vals.push(rnd() >>> (rnd() % 32));
  for (const [c, f] of Object.entries(ref)) {
    const p = func(c);
    for (const x of vals) assert.equal(call(p, [x])[0], f(x), `${c}(${hex(x)})`);
  }
});

test('memset, memset4, memcpy, memcpy44 (and their cycle estimates)', () => {
  const base = 0x20010000, sram = mcu.sram, o = base - 0x20000000;
  for (let i = 0; i < 100; i++) {
    sram.fill(0x5a, o - 16, o + 600);
    const off = rnd() % 8, n = rnd() % 520, c = rnd() & 0x1ff;
    const s4 = i % 2 === 1;
    const r = call(func(s4 ? 'S4' : 'MS'), [base + (s4 ? 0 : off), c, n]);
    const at = o + (s4 ? 0 : off);
    assert.equal(r[0], base + (s4 ? 0 : off), 'memset returns its pointer');
    for (let k = at - 16; k < at + n + 16; k++) assert.equal(sram[k], k >= at && k < at + n ? c & 0xff : 0x5a, `memset byte ${k - at} of ${n}`);
  }
  const src = 0x20020000, so = src - 0x20000000;
  for (let i = 0; i < 100; i++) {
    for (let k = 0; k < 600; k++) sram[so + k] = rnd() & 0xff;
    sram.fill(0xa5, o - 16, o + 600);
    const c4 = i % 2 === 1, n = rnd() % 520;
    const d = c4 ? 0 : rnd() % 8, s = c4 ? 0 : rnd() % 8;
    const r = call(func(c4 ? 'C4' : 'MC'), [base + d, src + s, n]);
    assert.equal(r[0], base + d, 'memcpy returns dest');
    for (let k = -16; k < n + 16; k++) assert.equal(sram[o + d + k], k >= 0 && k < n ? sram[so + s + k] : 0xa5);
  }
  // from XIP flash, and into USB DPRAM (not SRAM: the slow path)
  mcu.flash.set([1, 2, 3, 4, 5, 6, 7, 8, 9], 0x1000);
  call(func('MC'), [base, 0x10001000, 9]);
  assert.deepEqual([...sram.subarray(o, o + 9)], [1, 2, 3, 4, 5, 6, 7, 8, 9]);
  call(func('MC'), [0x50100010, 0x10001000, 9]);
  assert.deepEqual([...mcu.usbDPRAM.subarray(16, 25)], [1, 2, 3, 4, 5, 6, 7, 8, 9]);
  // cycles: proportional to length, and more for a byte-wise copy than a word-wise one
  const cost = (f, args) => { M.rom.cycles = 0; call(f, args); return M.rom.cycles; };
  const aligned = cost(func('MC'), [base, src, 4096]), bytewise = cost(func('MC'), [base + 1, src, 4096]);
  assert.ok(aligned > 3000 && aligned < 5000, `aligned memcpy 4 KiB: ${aligned}`);
  assert.ok(bytewise > 5 * aligned, `byte-wise memcpy 4 KiB: ${bytewise}`);
  const set = cost(func('MS'), [base, 0, 4096]);
  assert.ok(set > 1500 && set < 3000 && cost(func('MS'), [base, 0, 8192]) > 1.8 * set, `memset 4 KiB: ${set}`);
});

// ---- flash -------------------------------------------------------------------------------------
test('flash erase and program (NOR: bits only clear)', () => {
  const { flash } = mcu, log = M.log;
  log.erase.length = log.program.length = 0;
  flash.fill(0, 0xff000, 0x130000);
  call(func('IF')); call(func('EX'));
  // as hardware_flash's flash_range_erase: (offset, count, FLASH_BLOCK_SIZE, FLASH_BLOCK_ERASE_CMD)
  call(func('RE'), [0x100000, 0x12000, 1 << 16, 0xd8]);
  call(func('FC')); call(func('CX'));
  assert.deepEqual(log.erase, [[0x100000, 0x12000]]);
  assert.ok(flash.subarray(0x100000, 0x112000).every((b) => b === 0xff));
  assert.equal(flash[0x0fffff], 0); assert.equal(flash[0x112000], 0);
  const buf = 0x20030000, bo = buf - 0x20000000;
  const a = Array.from({ length: 512 }, () => rnd() & 0xff), b = Array.from({ length: 512 }, () => rnd() & 0xff);
  mcu.sram.set(a, bo);
  call(func('RP'), [0x100100, buf, 512]);
  assert.deepEqual([...flash.subarray(0x100100, 0x100300)], a);
  mcu.sram.set(b, bo);
  call(func('RP'), [0x100100, buf, 512]);
  assert.deepEqual([...flash.subarray(0x100100, 0x100300)], a.map((x, i) => x & b[i]), 'programming only clears bits');
  assert.equal(flash[0x1000ff], 0xff); assert.equal(flash[0x100300], 0xff);
  assert.deepEqual(log.program, [[0x100100, 512], [0x100100, 512]]);
  // XIP sees the new contents at once (no cache model)
  assert.equal(mcu.readUint8(0x10100100), a[0] & b[0]);
  // an unaligned erase clears whole sectors, as the flash chip does
  call(func('RE'), [0x120800, 0x1000, 1 << 16, 0xd8]);
  assert.deepEqual(log.erase.at(-1), [0x120000, 0x1000]);
  assert.ok(flash.subarray(0x120000, 0x121000).every((x) => x === 0xff) && flash[0x121000] === 0);
  M.rom.cycles = 0;
  call(func('RE'), [0x100000, 0x1000, 1 << 16, 0xd8]);
  assert.equal(M.rom.cycles, 0, 'flash time is priced by the caller');
});

// ---- soft float ----------------------------------------------------------------------------------
const SFO = { fadd: 0x00, fsub: 0x04, fmul: 0x08, fdiv: 0x0c, fcmp: 0x10, fcmp_flags: 0x14, fsqrt: 0x18,
  float2int: 0x1c, float2fix: 0x20, float2uint: 0x24, float2ufix: 0x28, int2float: 0x2c, fix2float: 0x30,
  uint2float: 0x34, ufix2float: 0x38, fcos: 0x3c, fsin: 0x40, ftan: 0x44, fsincos: 0x48, fexp: 0x4c,
  fln: 0x50, fcmp_combined: 0x54, fatan2: 0x58, int642float: 0x5c, fix642float: 0x60, uint642float: 0x64,
  ufix642float: 0x68, float2int64: 0x6c, float2fix64: 0x70, float2uint64: 0x74, float2ufix64: 0x78,
  float2double: 0x7c };
const F = (name, ...args) => call(sf(SFO[name]), args);

/** ROM result for a basic op on normal inputs: IEEE nearest-even, no denormal results. */
function refBasicF(exact, up, signed) {
  const a = Math.abs(exact);
  if (a >= MINF) return fb(exact); // (double rounding of +-*/ from double is innocuous)
  if (a >= up) return fb(Math.sign(exact) * MINF);
  return signed && (exact < 0 || Object.is(exact, -0)) ? 0x80000000 : 0;
}

test('fadd/fsub/fmul/fdiv: random operands against IEEE', () => {
  M.rom.cycles = 0;
  F('fadd', fb(1), fb(2));
  assert.ok(M.rom.cycles > 20 && M.rom.cycles < 200, 'fadd cycle estimate');
  for (let i = 0; i < 4 * N; i++) {
    const a = randF(), b = i % 8 === 0 ? (a ^ 0x80000000) + (rnd() % 5) - 2 : randF();
    const x = bf(a), y = bf(b >>> 0);
    fEq(F('fadd', a, b >>> 0)[0], refBasicF(x + y, MINF, true), `fadd ${x} ${y}`);
    fEq(F('fsub', a, b >>> 0)[0], refBasicF(x - y, MINF, true), `fsub ${x} ${y}`);
    fEq(F('fmul', a, b >>> 0)[0], refBasicF(x * y, MINF - 2 ** -150, true), `fmul ${x} ${y}`);
    fEq(F('fdiv', a, b >>> 0)[0], refBasicF(x / y, MINF - 2 ** -151, true), `fdiv ${x} ${y}`);
  }
});

test('float special cases (denormals, infinities, NaNs) as the ROM documents them', () => {
  const one = fb(1), two = fb(2), dn = 0x00000001, ndn = 0x80000001;
  const cases = [
    ['fadd', [fPosInf, fNegInf], fPosInf], ['fadd', [fNegInf, fPosInf], fPosInf],
    ['fsub', [fPosInf, fPosInf], fPosInf], ['fsub', [fNegInf, fNegInf], fPosInf],
    ['fadd', [fNaN, one], fPosInf], ['fadd', [fNegNaN, one], fNegInf],
    ['fadd', [dn, one], one], ['fadd', [0x00400000, 0x80400000], 0], ['fadd', [ndn, ndn], 0x80000000],
    ['fadd', [0, 0x80000000], 0], ['fadd', [0x80000000, 0x80000000], 0x80000000],
    ['fadd', [0x00c00000, 0x80a00000], 0], ['fadd', [0x80c00000, 0x00a00000], 0x80000000],
    ['fadd', [one, fb(-1)], 0], ['fadd', [0x7f7fffff, 0x7f7fffff], fPosInf],
    ['fadd', [one, 0x33800000], one], ['fadd', [one, 0x33800001], 0x3f800001],
    ['fmul', [0, fPosInf], fPosInf], ['fmul', [0x80000000, fPosInf], fNegInf], ['fmul', [fNaN, 0], fPosInf],
    ['fmul', [0x20000000, 0x20000000], 0x00800000], ['fmul', [0x1f800000, 0x20000000], 0],
    ['fmul', [0x9f800000, 0x20000000], 0x80000000], ['fmul', [0x3f7fffff, 0x00800000], 0x00800000],
    ['fmul', [0x3f7ffffe, 0x00800000], 0], ['fmul', [0x7f000000, fb(4)], fPosInf], ['fmul', [ndn, fb(1e30)], 0x80000000],
    ['fdiv', [one, 0], fPosInf], ['fdiv', [one, 0x80000000], fNegInf], ['fdiv', [0, 0], fPosInf],
    ['fdiv', [0x80000000, 0], fNegInf], ['fdiv', [fPosInf, fPosInf], fPosInf], ['fdiv', [fNegInf, fPosInf], fNegInf],
    ['fdiv', [one, fPosInf], 0], ['fdiv', [fb(-1), fPosInf], 0x80000000], ['fdiv', [fPosInf, one], fPosInf],
    ['fdiv', [dn, one], 0], ['fdiv', [one, dn], fPosInf], ['fdiv', [0x00800000, two], 0], ['fdiv', [0x00ffffff, two], 0],
    ['fsqrt', [fb(-1)], fNegInf], ['fsqrt', [0x80000000], 0x80000000], ['fsqrt', [ndn], 0x80000000],
    ['fsqrt', [dn], 0], ['fsqrt', [fPosInf], fPosInf], ['fsqrt', [fNaN], fPosInf], ['fsqrt', [fNegNaN], fNegInf],
    ['fsqrt', [fb(4)], two], ['fsqrt', [two], 0x3fb504f3],
  ];
  for (const [name, args, want] of cases) fEq(F(name, ...args)[0], want, `${name}(${args.map(hex)})`);
  for (let i = 0; i < N; i++) {
    const a = randF() & 0x7fffffff;
    fEq(F('fsqrt', a)[0], fb(Math.sqrt(bf(a))), `fsqrt ${bf(a)}`);
  }
});

test('fcmp (fast, flags, combined): results and condition flags', () => {
  const cmp = (x, y) => (x < y ? -1 : x > y ? 1 : 0);
  const check = (name, a, b, want) => {
    const r = F(name, a, b)[0] | 0;
    assert.equal(r, want, `${name}(${hex(a)}, ${hex(b)})`);
    assert.deepEqual([mcu.core.N, mcu.core.Z, mcu.core.C, mcu.core.V], [r < 0, r === 0, true, false]);
  };
  for (let i = 0; i < N; i++) {
    const a = randF(), b = i % 5 === 0 ? a : randF();
    for (const name of ['fcmp', 'fcmp_flags', 'fcmp_combined']) check(name, a, b, cmp(bf(a), bf(b)));
  }
  const specials = [ // [a, b, fast, combined]
    [0, 0x80000000, 0, 0], [fNaN, fPosInf, 1, 0], [1, 0, 1, 0], [0x80000001, 1, -1, 0],
    [fNegNaN, fNegInf, -1, 0], [fPosInf, 0x7f7fffff, 1, 1], [fNegInf, fb(-1), -1, -1],
  ];
  for (const [a, b, fast, comb] of specials) {
    check('fcmp', a, b, fast); check('fcmp_flags', a, b, fast); check('fcmp_combined', a, b, comb);
  }
});

test('float -> int32/uint32/fix conversions (floor, saturate, denormal -> 0)', () => {
  const ref = (b, n, [lo, hi], unsigned) => {
    const e = (b >>> 23) & 0xff;
    if (unsigned && b >>> 31) return 0n;
    if (e === 0) return 0n;
    if (e === 255) return b >>> 31 ? lo : hi;
    const p = fParts(b);
    return clampB(floorScaled(p, p.e + n), lo, hi);
  };
  const vals = [fb(1.5), fb(-1.5), fb(-0.5), 0x80000001, 0x80000000, 0x4f000000, 0xcf000000, 0x4f800000,
    0x4f7fffff, fPosInf, fNegInf, fNaN, fNegNaN, fb(1e-10), fb(-1e-10), fb(-2147483648), fb(2147483520)];
  for (let i = 0; i < N; i++) vals.push(randF());
  for (const b of vals) {
    const ns = [0, (rnd() % 80) - 40, 16, -1, 31];
    assert.equal(F('float2int', b)[0], Number(BigInt.asUintN(32, ref(b, 0, I32))), `float2int ${bf(b)}`);
    assert.equal(F('float2uint', b)[0], Number(ref(b, 0, U32, true)), `float2uint ${bf(b)}`);
    for (const n of ns) {
      assert.equal(F('float2fix', b, n >>> 0)[0], Number(BigInt.asUintN(32, ref(b, n, I32))), `float2fix ${bf(b)} ${n}`);
      assert.equal(F('float2ufix', b, n >>> 0)[0], Number(ref(b, n, U32, true)), `float2ufix ${bf(b)} ${n}`);
      assert.deepEqual(F('float2fix64', b, n >>> 0).slice(0, 2), lohi(ref(b, n, I64)), `float2fix64 ${bf(b)} ${n}`);
      assert.deepEqual(F('float2ufix64', b, n >>> 0).slice(0, 2), lohi(ref(b, n, U64, true)), `float2ufix64 ${bf(b)} ${n}`);
    }
    assert.deepEqual(F('float2int64', b).slice(0, 2), lohi(ref(b, 0, I64)), `float2int64 ${bf(b)}`);
    assert.deepEqual(F('float2uint64', b).slice(0, 2), lohi(ref(b, 0, U64, true)), `float2uint64 ${bf(b)}`);
  }
  assert.equal(F('float2fix', fb(0.5), 16)[0], 0x8000);
  assert.equal(F('float2fix', fb(-1.5), -2000 >>> 0)[0], 0xffffffff, 'floor of a tiny negative is -1');
  assert.deepEqual(F('float2fix64', fb(-1.5), -2000 >>> 0).slice(0, 2), [0xffffffff, 0xffffffff]);
  assert.equal(F('float2fix', fb(-0.5), 16)[0], 0xffff8000);
});

test('int32/uint32/fix and int64 -> float (nearest-even, no double rounding)', () => {
  // value m * 2^-n rounded to 24 bits; below the smallest normal packx gives +0 (or the
  // smallest normal from 0xffffff.. up), above the largest finite, infinity.
  const ref = (m, n) => {
    if (m === 0n) return 0;
    const v = (m < 0n ? -1 : 1) * roundP(m < 0n ? -m : m, 24) * 2 ** -n;
    if (!Number.isFinite(v) || Math.abs(v) >= MINF) return fb(v);
    return Math.abs(v) >= MINF - 2 ** -150 ? fb(Math.sign(v) * MINF) : 0;
  };
  const ints = [0, 1, -1, 0x7fffffff, -0x80000000, 16777217, 16777219, 33554435];
  for (let i = 0; i < N; i++) ints.push(rnd() | 0, (rnd() >>> (rnd() % 32)) | 0);
  for (const x of ints) {
    fEq(F('int2float', x >>> 0)[0], ref(BigInt(x), 0), `int2float ${x}`);
    fEq(F('uint2float', x >>> 0)[0], ref(BigInt(x >>> 0), 0), `uint2float ${x >>> 0}`);
    for (const n of [0, 16, (rnd() % 100) - 50]) {
      fEq(F('fix2float', x >>> 0, n >>> 0)[0], ref(BigInt(x), n), `fix2float ${x} ${n}`);
      fEq(F('ufix2float', x >>> 0, n >>> 0)[0], ref(BigInt(x >>> 0), n), `ufix2float ${x >>> 0} ${n}`);
    }
  }
  fEq(F('fix2float', 1, 150)[0], 0, 'underflow'); fEq(F('fix2float', -1 >>> 0, 150)[0], 0, 'packx underflow is +0');
  fEq(F('fix2float', 1, -200 >>> 0)[0], fPosInf, 'overflow');
  const big = [2n ** 54n + 2n ** 30n + 1n /* 53-bit rounding first would give 2^54 */, -(2n ** 63n), 2n ** 63n - 1n, 1n, -1n, 0n];
  for (let i = 0; i < N; i++) big.push(BigInt.asIntN(64, (BigInt(rnd()) << 32n) | BigInt(rnd())) >> BigInt(rnd() % 64));
  for (const m of big) {
    const [lo, hi] = lohi(m), u = BigInt.asUintN(64, m), n = (rnd() % 80) - 20;
    fEq(F('int642float', lo, hi)[0], ref(m, 0), `int642float ${m}`);
    fEq(F('uint642float', lo, hi)[0], ref(u, 0), `uint642float ${u}`);
    fEq(F('fix642float', lo, hi, n >>> 0)[0], ref(m, n), `fix642float ${m} ${n}`);
    fEq(F('ufix642float', lo, hi, n >>> 0)[0], ref(u, n), `ufix642float ${u} ${n}`);
  }
  fEq(F('int642float', ...lohi(2n ** 54n + 2n ** 30n + 1n))[0], 0x5a800001, 'no double rounding');
});

test('float -> double', () => {
  for (let i = 0; i < N; i++) {
    const b = randF();
    assert.deepEqual(F('float2double', b).slice(0, 2), db(bf(b)), `float2double ${bf(b)}`);
  }
  assert.deepEqual(F('float2double', 0x80000001).slice(0, 2), [0, 0x80000000], 'denormal -> signed zero');
  assert.deepEqual(F('float2double', fNaN).slice(0, 2), [dInfLo, dInfHi], 'NaN -> infinity');
  assert.deepEqual(F('float2double', fNegInf).slice(0, 2), [0, 0xfff00000]);
});

// scientific functions: the ROM is accurate to a few ulp over its documented ranges; we are closer.
const near = (got, want, tol, what) =>
  assert.ok(Math.abs(got - want) <= tol * Math.max(1, Math.abs(want)), `${what}: got ${got}, want ${want}`);

test('float sin/cos/tan/sincos/exp/ln/atan2', () => {
  const tol = 2 ** -21;
  for (let i = 0; i < N; i++) {
    const x = ((rnd() / 2 ** 32) * 2 - 1) * (i % 3 ? 6.3 : 127.9), b = fb(x), xf = bf(b);
    const [s, c] = F('fsin', b);
    near(bf(s), Math.sin(xf), tol, `fsin ${xf}`);
    near(bf(c), Math.cos(xf), tol, `fsin leaves cos in r1 (sincosf) ${xf}`);
    const [s2, c2] = F('fsincos', b);
    assert.deepEqual([s2, c2], [s, c], 'fsincos');
    near(bf(F('fcos', b)[0]), Math.cos(xf), tol, `fcos ${xf}`);
    if (Math.abs(Math.cos(xf)) > 1e-3) near(bf(F('ftan', b)[0]), Math.tan(xf), 1e-5, `ftan ${xf}`);
    const e = bf(fb((x / 127.9) * 87));
    near(bf(F('fexp', fb(e))[0]), Math.exp(e), tol, `fexp ${e}`);
    const l = bf(randF() & 0x7fffffff);
    near(bf(F('fln', fb(l))[0]), Math.log(l), tol, `fln ${l}`);
    const y = bf(randF(false)), z = bf(randF(false));
    near(bf(F('fatan2', fb(y), fb(z))[0]), Math.atan2(y, z), tol, `fatan2 ${y} ${z}`);
  }
  const cases = [
    ['fln', [fb(-1)], fNegInf], ['fln', [0], fNegInf], ['fln', [0x80000000], fNegInf], ['fln', [1], fNegInf],
    ['fln', [fPosInf], fPosInf], ['fln', [fNaN], fPosInf], ['fln', [fb(1)], 0], ['fln', [fNegNaN], fNegInf], ['fln', [0x80000001], fNegInf],
    ['fexp', [fNaN], fPosInf], ['fexp', [fNegNaN], 0], ['fexp', [fNegInf], 0], ['fsin', [fPosInf], fb(Math.fround(Math.sin(128 - 2 ** -24)))],
    ['fexp', [fb(100)], fPosInf], ['fexp', [fb(-200)], 0], ['fexp', [0x80000001], fb(1)], ['fexp', [0], fb(1)],
    ['fsin', [0], 0], ['fcos', [0x80000000], fb(1)], ['fatan2', [0, fb(-1)], fb(Math.PI)],
    ['fatan2', [0x80000000, fb(-1)], fb(-Math.PI)], ['fatan2', [fb(1), 0], fb(Math.PI / 2)],
  ];
  for (const [name, args, want] of cases) fEq(F(name, ...args)[0], want, `${name}(${args.map(hex)})`);
  M.rom.cycles = 0;
  F('fsin', fb(1));
  assert.ok(M.rom.cycles > 200, 'fsin costs hundreds of cycles');
});

// ---- soft double ---------------------------------------------------------------------------------
const SDO = { dadd: 0x00, dsub: 0x04, dmul: 0x08, ddiv: 0x0c, dcmp: 0x10, dcmp_flags: 0x14, dsqrt: 0x18,
  double2int: 0x1c, double2fix: 0x20, double2uint: 0x24, double2ufix: 0x28, int2double: 0x2c, fix2double: 0x30,
  uint2double: 0x34, ufix2double: 0x38, dcos: 0x3c, dsin: 0x40, dtan: 0x44, dsincos: 0x48, dexp: 0x4c,
  dln: 0x50, dcmp_combined: 0x54, datan2: 0x58, int642double: 0x5c, fix642double: 0x60, uint642double: 0x64,
  ufix642double: 0x68, double2int64: 0x6c, double2fix64: 0x70, double2uint64: 0x74, double2ufix64: 0x78,
  double2float: 0x7c };
const Dc = (name, ...args) => call(sd(SDO[name]), args);
const D2 = (name, a, b = []) => { const r = Dc(name, ...a, ...b); return bd(r[0], r[1]); };
const dEq = (got, want, what) => assert.ok(Object.is(got, want), `${what}: got ${got}, want ${want}`);
const flushD = (v) => (Math.abs(v) < MIND ? (v < 0 || Object.is(v, -0) ? -0 : 0) : v);

test('dadd/dsub/dmul/ddiv/dsqrt: random operands against IEEE', () => {
  for (let i = 0; i < 4 * N; i++) {
    const a = randD(), b = i % 8 === 0 ? [a[0] + (rnd() % 3) - 1 >>> 0, a[1] ^ 0x80000000] : randD();
    const x = bd(...a), y = bd(...b);
    dEq(D2('dadd', a, b), flushD(x + y), `dadd ${x} ${y}`);
    dEq(D2('dsub', a, b), flushD(x - y), `dsub ${x} ${y}`);
    dEq(D2('dmul', a, b), flushD(x * y), `dmul ${x} ${y}`);
    dEq(D2('ddiv', a, b), flushD(x / y), `ddiv ${x} ${y}`);
    dEq(D2('dsqrt', [a[0], a[1] & 0x7fffffff]), Math.sqrt(Math.abs(x)), `dsqrt ${Math.abs(x)}`);
  }
  const I = Infinity, dn = [1, 0], ndn = [1, 0x80000000], nan = [0, 0x7ff80000], nnan = [0, 0xfff80000];
  const d = (x) => db(x);
  const cases = [
    ['dadd', d(I), d(-I), I], ['dsub', d(-I), d(-I), I], ['dadd', nan, d(1), I], ['dadd', nnan, d(1), -I],
    ['dadd', dn, d(1), 1], ['dadd', ndn, ndn, -0], ['dadd', d(0), d(-0), 0], ['dadd', d(1.5 * MIND), d(-1.25 * MIND), 0],
    ['dmul', d(0), d(I), I], ['dmul', d(-0), d(I), -I], ['dmul', d(2 ** -511), d(2 ** -511), MIND],
    ['dmul', d(2 ** -512), d(2 ** -511), 0], ['dmul', d(1 - 2 ** -53), d(MIND), MIND], ['dmul', d(1 - 2 ** -52), d(MIND), 0],
    ['ddiv', d(1), d(0), I], ['ddiv', d(1), d(-0), -I], ['ddiv', d(0), d(0), I], ['ddiv', d(I), d(I), I],
    ['ddiv', d(-1), d(I), -0], ['ddiv', dn, d(1), 0], ['ddiv', d(MIND), d(2), 0],
    ['dsqrt', d(-1), [], -I], ['dsqrt', d(-0), [], -0], ['dsqrt', ndn, [], -0], ['dsqrt', nan, [], I], ['dsqrt', nnan, [], -I],
  ];
  for (const [name, a, b, want] of cases) dEq(D2(name, a, b), want, `${name}(${bd(...a)}, ${b.length ? bd(...b) : ''})`);
});

test('dcmp (fast, flags, combined)', () => {
  const cmp = (x, y) => (x < y ? -1 : x > y ? 1 : 0);
  const check = (name, a, b, want) => {
    const r = Dc(name, ...a, ...b)[0] | 0;
    assert.equal(r, want, `${name}(${bd(...a)}, ${bd(...b)})`);
    assert.deepEqual([mcu.core.N, mcu.core.Z, mcu.core.C], [r < 0, r === 0, true]);
  };
  for (let i = 0; i < N; i++) {
    const a = randD(), b = i % 5 === 0 ? [...a] : i % 5 === 1 ? [a[0] ^ 1, a[1]] : randD();
    for (const name of ['dcmp', 'dcmp_flags', 'dcmp_combined']) check(name, a, b, cmp(bd(...a), bd(...b)));
  }
  const specials = [[[0, 0], [0, 0x80000000], 0, 0], [[0, 0x7ff80000], [0, 0x7ff00000], 1, 0],
    [[1, 0], [0, 0], 1, 0], [[1, 0x80000000], [1, 0], -1, 0], [[0, 0xfff00001], [0, 0xfff00000], -1, 0]];
  for (const [a, b, fast, comb] of specials) {
    check('dcmp', a, b, fast); check('dcmp_flags', a, b, fast); check('dcmp_combined', a, b, comb);
  }
});

test('double -> int conversions, int -> double, double <-> float', () => {
  const ref = ([lo, hi], n, [a, b], unsigned) => {
    const e = (hi >>> 20) & 0x7ff;
    if (unsigned && hi >>> 31) return 0n;
    if (e === 0) return 0n;
    if (e === 0x7ff) return hi >>> 31 ? a : b;
    const p = dParts(lo, hi);
    return clampB(floorScaled(p, p.e + n), a, b);
  };
  const vals = [db(1.5), db(-1.5), db(-0.5), [1, 0x80000000], db(-0), db(2 ** 31), db(-(2 ** 31)), db(2 ** 32),
    db(2 ** 63), db(-(2 ** 63)), db(2 ** 64), db(1e-300), db(-1e-300), [0, 0x7ff00000], [0, 0xfff00000],
    [0, 0x7ff80000], [0, 0xfff80000], db(4294967295.5), db(-2147483648.5)];
  for (let i = 0; i < N; i++) vals.push(randD());
  for (const v of vals) {
    const x = bd(...v), ns = [0, 16, (rnd() % 80) - 40];
    assert.equal(Dc('double2int', ...v)[0], Number(BigInt.asUintN(32, ref(v, 0, I32))), `double2int ${x}`);
    assert.equal(Dc('double2uint', ...v)[0], Number(ref(v, 0, U32, true)), `double2uint ${x}`);
    assert.deepEqual(Dc('double2int64', ...v).slice(0, 2), lohi(ref(v, 0, I64)), `double2int64 ${x}`);
    assert.deepEqual(Dc('double2uint64', ...v).slice(0, 2), lohi(ref(v, 0, U64, true)), `double2uint64 ${x}`);
    for (const n of ns) {
      assert.equal(Dc('double2fix', ...v, n >>> 0)[0], Number(BigInt.asUintN(32, ref(v, n, I32))), `double2fix ${x} ${n}`);
      assert.equal(Dc('double2ufix', ...v, n >>> 0)[0], Number(ref(v, n, U32, true)), `double2ufix ${x} ${n}`);
      assert.deepEqual(Dc('double2fix64', ...v, n >>> 0).slice(0, 2), lohi(ref(v, n, I64)), `double2fix64 ${x} ${n}`);
      assert.deepEqual(Dc('double2ufix64', ...v, n >>> 0).slice(0, 2), lohi(ref(v, n, U64, true)), `double2ufix64 ${x} ${n}`);
    }
    // double -> float: nearest-even; no denormals (the smallest normal from 0x1.fffffe p-127 up)
    const f = Math.fround(x), e = (v[1] >>> 20) & 0x7ff;
    let want = e === 0x7ff ? fb(v[1] >>> 31 ? -Infinity : Infinity) : fb(f);
    if (e !== 0x7ff && Math.abs(x) < MINF) want = Math.abs(x) >= MINF - 2 ** -150 ? fb(Math.sign(x) * MINF) : signedZeroF(v[1] >>> 31);
    fEq(Dc('double2float', ...v)[0], want, `double2float ${x}`);
  }
  fEq(Dc('double2float', ...db(MINF - 2 ** -150))[0], 0x00800000, 'rounds up to the smallest normal');
  fEq(Dc('double2float', ...db(-(MINF - 2 ** -149)))[0], 0x80000000, 'else a signed zero');
  const ints = [0, 1, -1, 0x7fffffff, -0x80000000];
  for (let i = 0; i < N; i++) ints.push(rnd() | 0);
  for (const i of ints) {
    const n = (rnd() % 100) - 50;
    dEq(D2('int2double', [i >>> 0]), i, `int2double ${i}`);
    dEq(D2('uint2double', [i >>> 0]), i >>> 0, `uint2double ${i >>> 0}`);
    dEq(D2('fix2double', [i >>> 0, n >>> 0]), i * 2 ** -n, `fix2double ${i} ${n}`);
    dEq(D2('ufix2double', [i >>> 0, n >>> 0]), (i >>> 0) * 2 ** -n, `ufix2double ${i >>> 0} ${n}`);
  }
  const bigs = [2n ** 63n - 1n, -(2n ** 63n), 2n ** 53n + 1n, 2n ** 54n + 3n];
  for (let i = 0; i < N; i++) bigs.push(BigInt.asIntN(64, (BigInt(rnd()) << 32n) | BigInt(rnd())) >> BigInt(rnd() % 64));
  for (const m of bigs) {
    const [lo, hi] = lohi(m), u = BigInt.asUintN(64, m), n = (rnd() % 80) - 20;
    dEq(D2('int642double', [lo, hi]), Number(m), `int642double ${m}`);
    dEq(D2('uint642double', [lo, hi]), Number(u), `uint642double ${u}`);
    dEq(D2('fix642double', [lo, hi, n >>> 0]), Number(m) * 2 ** -n, `fix642double ${m} ${n}`);
    dEq(D2('ufix642double', [lo, hi, n >>> 0]), Number(u) * 2 ** -n, `ufix642double ${u} ${n}`);
  }
});

test('double sin/cos/tan/sincos/exp/ln/atan2', () => {
  const tol = 2 ** -50;
  for (let i = 0; i < N; i++) {
    const x = ((rnd() / 2 ** 32) * 2 - 1) * (i % 3 ? 6.3 : 1000), v = db(x);
    dEq(D2('dsin', v), Math.sin(x), `dsin ${x}`);
    dEq(D2('dcos', v), Math.cos(x), `dcos ${x}`);
    const r = Dc('dsincos', ...v);
    dEq(bd(r[0], r[1]), Math.sin(x), `dsincos sin ${x}`);
    dEq(bd(r[2], r[3]), Math.cos(x), `dsincos cos (r2:r3) ${x}`);
    near(D2('dtan', v), Math.tan(x), tol, `dtan ${x}`);
    const e = (x / 1000) * 700;
    near(D2('dexp', db(e)), Math.exp(e), tol, `dexp ${e}`);
    const l = bd(...randD()) * (i % 2 ? 1 : -1);
    dEq(D2('dln', db(Math.abs(l))), Math.log(Math.abs(l)), `dln ${Math.abs(l)}`);
    const y = bd(...randD(false)), z = bd(...randD(false));
    dEq(D2('datan2', db(y), db(z)), Math.atan2(y, z), `datan2 ${y} ${z}`);
  }
  const I = Infinity;
  const cases = [
    ['dln', -1, -I], ['dln', 0, -I], ['dln', -0, -I], ['dln', I, I], ['dln', 1, 0],
    ['dexp', 2000, I], ['dexp', -2000, 0], ['dexp', -800, 0], ['dexp', 0, 1],
    ['dsin', 0, 0], ['dsin', -0, 0], ['dcos', 0, 1], ['dsin', 2048, 0], ['dcos', I, 1],
  ];
  for (const [name, x, want] of cases) dEq(D2(name, db(x)), want, `${name}(${x})`);
  dEq(D2('dln', [0, 0x7ff80000]), I, 'dln(NaN)');
  dEq(D2('dln', [0, 0xfff80000]), -I, 'dln(-NaN)'); dEq(D2('dln', [1, 0]), -I, 'dln(denormal)');
  dEq(D2('dexp', [0, 0x7ff80000]), I, 'dexp(NaN)'); dEq(D2('dexp', [0, 0xfff80000]), 0, 'dexp(-NaN)');
  dEq(D2('dexp', [1, 0x80000000]), 1, 'dexp(-denormal)');
  dEq(D2('datan2', db(0), db(-1)), Math.PI, 'datan2(0, -1)');
});

// ---- boot and BOOTSEL ----------------------------------------------------------------------------
function crc32(bytes) { // CRC-32/MPEG-2 as the ROM checks boot2: MSB first, init ~0, no final xor
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b << 24;
    for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
  }
  return c >>> 0;
}

test('reset: boot2 is copied to the top of SRAM and entered with LR = 0', () => {
  const B = machine();
  const boot2 = new Uint8Array(256);
  boot2.set([0xee, 0xbe]); // bkpt #0xee: stands in for boot2 code
  for (let i = 2; i < 252; i++) boot2[i] = i;
  new DataView(boot2.buffer).setUint32(252, crc32(boot2.subarray(0, 252)), true);
  B.mcu.flash.set(boot2, 0);
  B.mcu.core.reset();
  assert.equal(B.mcu.core.SP, 0x20042000);
  B.mcu.step(); // the reset stub
  assert.equal(B.mcu.core.PC, 0x20041f00);
  assert.equal(B.mcu.core.LR, 0);
  assert.deepEqual([...B.mcu.sram.subarray(0x41f00, 0x42000)], [...boot2]);
  B.mcu.step();
  assert.equal(B.log.foreign.length, 0);
  assert.equal(B.rom.usbBoot, null);

  // a blank flash has no valid boot2: the real ROM would enter BOOTSEL
  const C = machine();
  C.mcu.core.reset();
  C.mcu.step();
  assert.equal(C.log.usb.length, 1);
  assert.match(C.rom.usbBoot.reason, /boot2/);
  for (let i = 0; i < 5; i++) C.mcu.step(); // parked in a wfi loop
  assert.ok(C.mcu.core.PC < 0x100);

  // watchdog_reboot(pc, sp, ...) magic in scratch 4-7: straight to pc, LR = continue to flash boot
  const W = machine(), wd = 0x40058000, pc = 0x20001235;
  W.mcu.writeUint32(wd + 0x1c, 0xb007c0d3);
  W.mcu.writeUint32(wd + 0x20, (pc ^ -0xb007c0d3) >>> 0);
  W.mcu.writeUint32(wd + 0x24, 0x20030000);
  W.mcu.writeUint32(wd + 0x28, pc);
  W.mcu.core.reset();
  W.mcu.step();
  assert.equal(W.mcu.core.PC, pc & ~1);
  assert.equal(W.mcu.core.SP, 0x20030000);
  assert.equal(W.mcu.core.LR & 1, 1);
  assert.equal(W.mcu.readUint32(wd + 0x1c), 0, 'magic cleared');
});

test('reset_usb_boot is recorded and does not return', () => {
  const B = machine();
  const R = B.mcu.core.registers, ub = B.func('UB');
  R[0] = 1 << 25; R[1] = 2;
  B.mcu.core.LR = STOP | 1;
  B.mcu.core.PC = ub & ~1;
  for (let i = 0; i < 6; i++) B.mcu.step();
  assert.deepEqual(B.rom.usbBoot, { gpioMask: 1 << 25, disableMask: 2, reason: 'reset_usb_boot' });
  assert.deepEqual(B.log.usb, [B.rom.usbBoot]);
  assert.ok(B.mcu.core.PC < 0x100, 'parked in the ROM');
});
