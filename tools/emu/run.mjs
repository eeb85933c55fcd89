/**
 * Runs a job that tools/emu/__main__.py wrote: one or two boards (two joined by a link
 * cable), and the steps of a keys script already turned into pins and times.
 *
 *   node tools/emu/run.mjs JOB.json
 *
 * Steps: {do: "key", board, pin, down} | {do: "run", ms} | {do: "settle", drawn} |
 * {do: "console", text, ms} | {do: "shot", board, name} | {do: "powercut", board} |
 * {do: "mark", label}.
 * Writes into the job's `out` folder: shots/NAME.png, console-B.txt, refreshes-B.csv,
 * heap-B.csv, erases-B.csv, flash-B.bin (the flash at the end, for a later power-on),
 * result.json (the figures), and progress.txt while it runs (each mark, when). Exits 0
 * when the run finished, whatever the board did (the caller judges the figures), 2 when
 * the job itself cannot run.
 */
import { readFileSync, writeFileSync, mkdirSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { Machine, FLASH_SIZE } from './machine.mjs';
import { encodePng } from './png.mjs';

const MS = 1e6;
const WINDOW = 10 * MS;     // the CPU's idle share and the panel are judged over this much time

class Board {
  constructor(spec, index) {
    this.spec = spec;
    this.index = index;
    this.name = spec.name;
    this.firmware = readFileSync(spec.firmware);
    this.flash = spec.flash ? readFileSync(spec.flash) : null;
    this.offset = 0;            // emulated ns before this power-on (power cuts restart time)
    this.lineFree = 0;          // when the cable can take this board's next byte
    this.log = { refreshes: [], heap: [], erases: [], console: '', presses: [], busy: [], boots: [], vms: [] };
    this.powerOn();
  }

  powerOn() {
    this.m = new Machine({ ...this.spec, firmware: this.firmware, flash: this.flash });
    this.lastIdle = 0;
    this.windowStart = 0;
    this.busySince = null;
    this.calmSince = null;
    this.log.boots.push(this.offset);
  }

  /** Time on this board's own clock since the job began. */
  get now() { return this.offset + this.m.ns; }

  /** Run one slice of emulated time; every WINDOW of it, note what the CPU and the panel did. */
  slice(untilNs) {
    const m = this.m;
    m.runUntil(untilNs - this.offset);
    if (m.ns - this.windowStart >= WINDOW) this.window();
    return m.fault;
  }

  window() {
    const m = this.m;
    const start = this.windowStart;
    if (!m.heap.first) m.heap.find();
    const idle = (m.idleNs - this.lastIdle) / Math.max(m.ns - start, 1);
    this.lastIdle = m.idleNs;
    this.windowStart = m.ns;
    const drew = m.panel.lastPixelNs > start || m.panel.drawing(m.ns);
    if (idle < 0.2) {
      if (this.busySince === null) this.busySince = this.offset + start;
    } else if (this.busySince !== null) {
      this.log.busy.push([this.busySince, this.offset + start]);
      this.busySince = null;
    }
    // a screen that works while it waits (the link screen polls its cable) is calm: only
    // drawing, or a CPU busy all through (thinking, loading), is not
    if (drew || idle < 0.2) this.calmSince = null;
    else if (this.calmSince === null) this.calmSince = this.offset + start;
  }

  collect() {
    const m = this.m;
    m.panel.endRefresh();
    // timed by the probe where the .elf gave one, else by the panel's bursts of pixels
    const refreshes = m.refreshAt >= 0 ? m.calls : m.panel.refreshes;
    for (const r of refreshes.splice(0)) {
      this.log.refreshes.push([this.offset + r.start, r.end - r.start, r.pixels, r.windows]);
    }
    if (m.refreshAt >= 0) m.panel.refreshes.length = 0;
    for (const s of m.heap.samples.splice(0)) this.log.heap.push([this.offset + s[0], s[1], s[2]]);
    for (const s of m.heap.starts.splice(0)) this.log.vms.push(this.offset + s);
    for (const e of m.erases.splice(0)) this.log.erases.push([this.offset + e[0], e[1]]);
    this.log.console += m.console;
    m.console = '';
  }

  /** The power goes at job time `at` and comes back: the flash is what the board keeps. */
  powerCut(at) {
    this.collect();
    this.flash = Buffer.from(this.m.mcu.flash.subarray(0, FLASH_SIZE));
    this.offset = at;
    this.powerOn();
  }
}

function main() {
  const job = JSON.parse(readFileSync(process.argv[2], 'utf8'));
  const out = job.out;
  mkdirSync(join(out, 'shots'), { recursive: true });
  const boards = job.boards.map((spec, i) => new Board(spec, i));
  const quiet = (job.quietMs ?? 1000) * MS;
  // two boards run in turns short enough that the cable's bytes reach the other's UART
  // (32 bytes of FIFO) about when they arrive: 1 ms is 11 bytes at 115,200 baud
  const SLICE = boards.length === 2 ? MS : WINDOW;
  const settleLimit = (job.settleLimitMs ?? 30000) * MS;
  let now = 0;
  const marks = [];
  const unsettled = [];
  const started = Date.now();

  function advance(to) {
    while (now < to) {
      now = Math.min(to, now + SLICE);
      for (const b of boards) {
        const fault = b.slice(now);
        if (fault) throw new Error(`${b.name}: ${fault}`);
      }
      if (boards.length === 2) cable(boards[0], boards[1]);
    }
  }

  /**
   * Run until every board waits for its player; `drawn`: and its code.py has drawn (the
   * second VM since power-on is code.py's, after boot.py's: a board whose CircuitPython
   * built its display draws its own console on it before).
   */
  function settle(drawn) {
    const from = now;
    const game = (m) => m.heap.starts.length >= 2 && m.panel.lastPixelNs > m.heap.starts[1];
    while (true) {
      const calm = boards.every((b) => b.calmSince !== null && now - b.calmSince >= quiet &&
        (!drawn || game(b.m)));
      if (calm) return;
      if (now - from > settleLimit) {
        unsettled.push([from, job.steps.indexOf(step)]);
        return;
      }
      advance(now + SLICE);
    }
  }

  let step = null;
  for (step of job.steps) {
    const b = step.board === undefined ? null : boards[step.board];
    if (step.do === 'key') {
      b.m.press(step.pin, step.down);
      for (const other of boards) other.calmSince = null;    // what follows a key is its answer
      if (step.down) b.log.presses.push([b.now, step.pin]);
    } else if (step.do === 'run') {
      advance(now + step.ms * MS);
    } else if (step.do === 'settle') {
      settle(step.drawn);
    } else if (step.do === 'console') {
      // until every board's console has said `text` (or `ms` have passed)
      const end = now + step.ms * MS;
      while (now < end && !boards.every((o) => (o.log.console + o.m.console).includes(step.text))) {
        advance(now + WINDOW);
      }
    } else if (step.do === 'shot') {
      const [w, h, rgb] = b.m.panel.picture(b.spec.panel.rotation || 0);
      writeFileSync(join(out, 'shots', step.name + '.png'), encodePng(w, h, rgb));
    } else if (step.do === 'powercut') {
      b.powerCut(now);
    } else if (step.do === 'mark') {
      marks.push([now, step.label]);
      appendFileSync(join(out, 'progress.txt'), `${step.label} at ${(now / 1e9).toFixed(1)} s emulated, ` +
        `${((Date.now() - started) / 1000).toFixed(0)} s\n`);
    } else {
      throw new Error('unknown step ' + JSON.stringify(step));
    }
  }
  const result = { emulatedMs: now / MS, seconds: (Date.now() - started) / 1000, marks, unsettled, boards: [] };
  for (const b of boards) {
    b.collect();
    if (b.busySince !== null) b.log.busy.push([b.busySince, b.now]);
    const tag = b.index;
    writeFileSync(join(out, `console-${tag}.txt`), b.log.console);
    writeFileSync(join(out, `refreshes-${tag}.csv`), 'start_ms,ms,pixels,windows\n' +
      b.log.refreshes.map((r) => [r[0] / MS, r[1] / MS, r[2], r[3]].join(',')).join('\n') + '\n');
    writeFileSync(join(out, `heap-${tag}.csv`), 'ms,free,largest\n' +
      b.log.heap.map((h) => [h[0] / MS, h[1], h[2]].join(',')).join('\n') + '\n');
    writeFileSync(join(out, `erases-${tag}.csv`), 'ms,offset\n' +
      b.log.erases.map((e) => [e[0] / MS, '0x' + e[1].toString(16)].join(',')).join('\n') + '\n');
    writeFileSync(join(out, `flash-${tag}.bin`), b.m.mcu.flash.subarray(0, FLASH_SIZE));
    result.boards.push({
      name: b.name,
      presses: b.log.presses.map((p) => [p[0] / MS, p[1]]),
      busy: b.log.busy.map((s) => [s[0] / MS, s[1] / MS]),
      boots: b.log.boots.map((t) => t / MS),
      vms: b.log.vms.map((t) => t / MS),
      programs: b.m.programs,
    });
  }
  writeFileSync(join(out, 'result.json'), JSON.stringify(result, null, 1));
}

/** The cable: what each board's UART sent reaches the other at the line's pace (10 bits a byte). */
function cable(a, b) {
  for (const [from, to] of [[a, b], [b, a]]) {
    const m = from.m;
    if (!m.uart || !m.sent.length) continue;
    const byteNs = 10e9 / (m.uart.baudRate || 115200);
    for (const [ns, byte] of m.sent.splice(0)) {
      const at = Math.max(from.offset + ns, from.lineFree) + byteNs;
      from.lineFree = at;
      to.m.receive(at - to.offset, byte);
    }
  }
}

try {
  main();
  process.exit(0);      // (rp2040js may leave a timer behind: the run is over)
} catch (e) {
  console.error(e.stack || String(e));
  process.exit(2);
}
