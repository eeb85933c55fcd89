/**
 * Tests of the emulator's own board parts that need no CircuitPython image: the panel
 * model, the UF2 loader, the UART choice and the PNG writer. Run by host_tests/test_emu_parts.py
 * (`node tools/emu/parts.test.mjs [PNG PATH]`); exits non-zero on the first failure.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { Panel } from './panel.mjs';
import { loadUf2, uartOf } from './machine.mjs';
import { encodePng } from './png.mjs';

function send(panel, bytes, ns) {
  for (const [dc, v] of bytes) panel.byte(v, dc, ns);
}
const cmd = (c, ...args) => [[false, c], ...args.map((a) => [true, a])];

// a 2x2 window at (40, 53) filled red, green, blue, white
const p = new Panel();
send(p, [...cmd(0x2a, 0, 40, 0, 41), ...cmd(0x2b, 0, 53, 0, 54), ...cmd(0x29)], 0);
send(p, [...cmd(0x2c, 0xf8, 0x00, 0x07, 0xe0, 0x00, 0x1f, 0xff, 0xff)], 1000);
let [w, h, rgb] = p.picture();
assert.deepEqual([w, h], [2, 2]);
assert.deepEqual([...rgb], [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]);
// a second window 1 ms later is the same refresh; one 5 ms later is a new one
send(p, [...cmd(0x2c, 0, 0)], 1e6 + 1000);
send(p, [...cmd(0x2c, 0, 0)], 7e6);
p.endRefresh();
assert.equal(p.refreshes.length, 2);
assert.deepEqual([p.refreshes[0].pixels, p.refreshes[0].windows], [5, 2]);
assert.equal(p.refreshes[0].end - p.refreshes[0].start, 1e6);
// the window wraps: the fifth pixel of a 2x2 window lands on its first again
assert.deepEqual([...p.picture()[2].subarray(0, 3)], [0, 0, 0]);
// the panel asleep shows black
send(p, cmd(0x10), 8e6);
assert.ok(p.picture()[2].every((v) => v === 0));

// UF2: a block for the RP2040 lands in the flash; a bad magic or another family is refused
function block(address, payload, family = 0xe48bff56) {
  const b = Buffer.alloc(512);
  b.writeUInt32LE(0x0a324655, 0); b.writeUInt32LE(0x9e5d5157, 4); b.writeUInt32LE(0x2000, 8);
  b.writeUInt32LE(address, 12); b.writeUInt32LE(payload.length, 16); b.writeUInt32LE(family, 28);
  Buffer.from(payload).copy(b, 32); b.writeUInt32LE(0x0ab16f30, 508);
  return b;
}
const flash = new Uint8Array(2 * 1024 * 1024).fill(0xff);
assert.equal(loadUf2(Buffer.concat([block(0x10000100, [1, 2, 3])]), flash), 3);
assert.deepEqual([...flash.subarray(0x100, 0x104)], [1, 2, 3, 0xff]);
assert.throws(() => loadUf2(Buffer.alloc(512), flash), /no UF2 magic/);
assert.throws(() => loadUf2(block(0x10000000, [1], 0x68ed2b88), flash), /another chip family/);
assert.throws(() => loadUf2(block(0x20000000, [1]), flash), /outside the flash/);

// the link's UART by its TX pin
assert.deepEqual([0, 4, 8, 12, 16, 20, 24, 28].map(uartOf), [0, 1, 1, 0, 0, 1, 1, 0]);

// a PNG for the caller to read back
if (process.argv[2]) writeFileSync(process.argv[2], encodePng(2, 2, Uint8Array.from(rgb)));
console.log('parts: all passed');
