/**
 * One board: an RP2040 (rp2040js) running an official CircuitPython image, with the parts
 * the game touches modelled: the flash chip (on the SSI, and written through our ROM),
 * the ST7789 panel on its SPI bus, buttons that pull pins low, the battery's ADC pin, the
 * USB serial console (the host's side), the link cable's UART, and a probe of the heap.
 *
 * Time is emulated: 8 ns a cycle at 125 MHz, and while the CPU waits for an interrupt
 * the clock jumps to the next alarm, so figures are the board's, not this PC's.
 */
import { RP2040, USBCDC, BasePeripheral } from 'rp2040js';
import { Rom } from './rom.mjs';
import { Panel } from './panel.mjs';
import { HeapProbe } from './heap.mjs';

export const FLASH_SIZE = 2 * 1024 * 1024;   // a W25Q16: what CircuitPython reads by RDID
const SECTOR = 4096;

/** The blocks of a UF2 file for the RP2040 written into `flash`; the bytes written. */
export function loadUf2(uf2, flash) {
  let written = 0;
  for (let at = 0; at + 512 <= uf2.length; at += 512) {
    const b = uf2.subarray(at, at + 512);
    const word = (o) => b.readUInt32LE(o);
    if (word(0) !== 0x0a324655 || word(4) !== 0x9e5d5157 || word(508) !== 0x0ab16f30) {
      throw new Error(`not a UF2 file: block ${at / 512} has no UF2 magic`);
    }
    const flags = word(8), address = word(12), size = word(16);
    if (flags & 1) continue;                               // "not main flash"
    if (flags & 0x2000 && word(28) !== 0xe48bff56) {
      throw new Error(`UF2 block ${at / 512} is for another chip family (0x${word(28).toString(16)}), not the RP2040`);
    }
    if (address < 0x10000000 || address + size > 0x10000000 + flash.length || size > 476) {
      throw new Error(`UF2 block ${at / 512} writes outside the flash (0x${address.toString(16)})`);
    }
    flash.set(b.subarray(32, 32 + size), address - 0x10000000);
    written += size;
  }
  if (!written) throw new Error('the UF2 file holds nothing for the flash');
  return written;
}

/** The QSPI flash chip behind the SSI: commands the SDK sends itself (RDID, unique ID, status). */
class FlashChip extends BasePeripheral {
  constructor(rp2040, uniqueId) {
    super(rp2040, 'SSI');
    this.uniqueId = uniqueId;
    this.out = [];
    this.sent = [];
    this.regs = new Map();
  }
  select() { this.sent = []; this.out = []; }
  reply(byte) {
    const n = this.sent.push(byte) - 1;
    const cmd = this.sent[0];
    if (n === 0) return 0;
    if (cmd === 0x9f) return [0xef, 0x40, 0x15][n - 1] ?? 0;          // Winbond, 2 MB
    if (cmd === 0x4b) return n >= 5 ? this.uniqueId[(n - 5) & 7] : 0;    // 4 dummy bytes, then the ID
    return 0;                                                            // status: never busy
  }
  readUint32(offset) {
    if (offset === 0x28) return 0x0e;                 // SR: TX not full, TX empty, RX not empty
    if (offset === 0x60) return this.out.length ? this.out.shift() : 0;
    if (offset === 0x24) return this.out.length;      // RXFLR
    return this.regs.get(offset) ?? 0;
  }
  writeUint32(offset, value) {
    if (offset === 0x60) {
      this.out.push(this.reply(value & 0xff));
      return;
    }
    this.regs.set(offset, value);
  }
}

/** IO_QSPI: the chip select the SDK forces by hand around its own flash commands. */
class QspiIo extends BasePeripheral {
  constructor(rp2040, chip) {
    super(rp2040, 'IO_QSPI');
    this.chip = chip;
    this.regs = new Map();
  }
  readUint32(offset) {
    return this.regs.get(offset) ?? 0;
  }
  writeUint32(offset, value) {
    if (offset === 0x0c && ((value >> 8) & 3) === 2) this.chip.select();   // SS forced low
    this.regs.set(offset, value);
  }
}

export class Machine {
  /**
   * firmware: the UF2 file's bytes; flash: a whole flash image to start from (the game
   * deployed, or what a power cut kept), or null for the image alone;
   * panel: {spi, dc, cs}; keys: GPIO numbers; adc: {channel: 12-bit value};
   * link: {tx, rx} GPIOs of the cable's UART or null; uniqueId: 8 bytes (boards differ);
   * probes: from the .elf if there is one, {refresh: the address of display.refresh()'s C
   * function, collected: gc_collect_end's}: each refresh is then timed from its call to
   * its return (`calls`), and the heap read as each collection returns.
   */
  constructor({ firmware, flash = null, panel, keys = [], adc = {}, link = null,
                uniqueId = [1, 2, 3, 4, 5, 6, 7, 8], probes = {} }) {
    const mcu = new RP2040();
    this.mcu = mcu;
    mcu.logger = { debug() {}, info() {}, warn() {}, error() {} };
    mcu.flash.fill(0xff);
    if (flash) {
      mcu.flash.set(flash.subarray(0, FLASH_SIZE));
    } else {
      loadUf2(firmware, mcu.flash);
    }
    this.erases = [];            // [ns, offset] of every sector erased
    this.programs = 0;           // pages (256 B) programmed
    this.rom = new Rom(mcu, {
      onErase: (offset, length) => {
        for (let o = offset; o < offset + length; o += SECTOR) this.erases.push([this.ns, o]);
      },
      onProgram: (offset, length) => { this.programs += Math.ceil(length / 256); },
    });
    this.rom.install();
    mcu.onBreak = (code) => {
      if (!this.rom.handleBreak(code)) {
        this.fault = `the CPU stopped at a breakpoint (${code}) at 0x${mcu.core.PC.toString(16)}`;
      }
    };
    const chip = new FlashChip(mcu, Uint8Array.from(uniqueId));
    mcu.peripherals[0x18000] = chip;
    mcu.peripherals[0x40018] = new QspiIo(mcu, chip);
    // the flash's chip select, read as a button (BOOTSEL) by CircuitPython: not held
    Object.defineProperty(mcu.qspi[1], 'inputValue', { get: () => true });
    this.fault = null;

    this.panel = new Panel();
    const spi = mcu.spi[panel.spi];
    const dc = mcu.gpio[panel.dc];
    const cs = panel.cs === null || panel.cs === undefined ? null : mcu.gpio[panel.cs];
    spi.onTransmit = (value) => {
      if (cs === null || !cs.outputValue) this.panel.byte(value & 0xff, dc.outputValue, this.ns);
      const ns = (spi.dataBits * 1e9) / (spi.clockFrequency || 1e6);
      this.spiAlarm.schedule(ns);
    };
    this.spiAlarm = mcu.clock.createAlarm(() => spi.completeTransmit(0));

    for (const pin of keys) mcu.gpio[pin].setInputValue(true);        // pulled up, not pressed
    for (const [channel, value] of Object.entries(adc)) mcu.adc.channelValues[Number(channel)] = value;

    this.console = '';
    this.cdc = new USBCDC(mcu.usbCtrl);
    this.cdc.onSerialData = (bytes) => { this.console += Buffer.from(bytes).toString('latin1'); };
    // The host reads the device's OUT endpoints only when it has something to send, as a
    // PC does: rp2040js's host answers an armed buffer at once with an empty packet, which
    // the device re-arms at once (an interrupt every few microseconds).
    mcu.usbCtrl.onEndpointRead = () => {};

    this.uart = null;
    this.wire = [];              // bytes on their way to this board: [arrival ns, byte]
    if (link) {
      this.uart = mcu.uart[uartOf(link.tx)];
      this.sent = [];            // bytes this board put on the wire: [ns, byte]
      this.uart.onByte = (value) => { this.sent.push([this.ns, value]); };
      this.wireAlarm = mcu.clock.createAlarm(() => this.deliver());
    }

    // rp2040js runs a PIO on the PC's timers (setTimeout), outside emulated time: here it
    // runs in runUntil (the Pico W build's Wi-Fi bus is a PIO program; with no chip there
    // it must still clock for the firmware to give up on the chip)
    for (const pio of mcu.pio) pio.run = () => {};
    this.heap = new HeapProbe(mcu);
    this.refreshAt = probes.refresh ?? -1;
    this.collectedAt = probes.collected ?? -1;
    this.collectedBack = -1;
    if (this.collectedAt >= 0) this.heap.byWrites = false;
    this.calls = [];             // {start, end, pixels, windows} of each display.refresh() call
    this.call = null;
    this.idleNs = 0;
    this.cycleNs = 8;
    // Start as the ROM would after boot2: boot2 (in the image's first 256 bytes) sets the
    // flash up and jumps to the vector table at 0x10000100 when it returns to 0.
    mcu.core.SP = 0x20042000;
    mcu.core.PC = 0x10000000;
    mcu.core.registers[14] = 0;
  }

  get ns() { return this.mcu.clock.nanos; }

  /** Run the board until emulated time `until` (ns). */
  runUntil(until) {
    const { mcu, rom, heap } = this;
    const core = mcu.core;
    const clock = mcu.clock;
    const pios = mcu.pio;
    while (clock.nanos < until && this.fault === null) {
      // a PIO state machine that is not stalled runs a step a cycle, so time goes a cycle
      // at a time; stalled ones look at their FIFOs and pins once a step of the CPU
      const running = pios.some(pioRunning);
      let cycles = 1;
      if (core.waiting) {
        if (core.pendingInterrupts & core.enabledInterrupts) {
          // ARMv6-M: WFI with an enabled interrupt pending completes (rp2040js waits on)
          core.waiting = false;
          core.interruptsUpdated = true;
          continue;
        }
        const next = clock.nanosToNextAlarm;
        const step = running ? this.cycleNs
          : next > 0 ? Math.min(next, until - clock.nanos) : until - clock.nanos;
        clock.tick(step);
        this.idleNs += step;
      } else {
        cycles = core.executeInstruction() + rom.cycles;
        rom.cycles = 0;
        clock.tick(cycles * this.cycleNs);
        if (core.PC === this.refreshAt || this.call !== null && core.PC === this.call.back) this.probe();
        if (core.PC === this.collectedAt) this.collectedBack = core.LR & ~1;
        else if (core.PC === this.collectedBack) {
          this.collectedBack = -1;
          heap.pending = true;
        }
      }
      for (const pio of pios) {
        if (!pio.stopped) for (let k = running ? cycles : 1; k > 0; k--) stepPio(pio);
      }
      if (heap.pending) heap.sample(clock.nanos);
    }
    this.panel.drawing(clock.nanos) || this.panel.endRefresh();
  }

  /** display.refresh()'s C function was entered, or has returned to its caller. */
  probe() {
    const { core } = this.mcu;
    const { panel } = this;
    if (this.call === null) {
      this.call = { start: this.ns, back: core.LR & ~1, sp: core.SP, pixels: panel.sent, windows: panel.windows };
    } else if (core.SP >= this.call.sp) {      // (not a deeper call passing by)
      const c = this.call;
      this.calls.push({ start: c.start, end: this.ns, pixels: panel.sent - c.pixels, windows: panel.windows - c.windows });
      this.call = null;
    }
  }

  /** A byte from the cable's far end, arriving at `ns` (already past: at once). */
  receive(ns, byte) {
    if (!this.uart) return;
    this.wire.push([ns, byte]);
    if (this.wire.length === 1) this.wireAlarm.schedule(Math.max(0, ns - this.ns));
  }

  /** The bytes whose time has come go into the UART; the alarm waits for the next. */
  deliver() {
    while (this.wire.length && this.wire[0][0] <= this.ns) this.uart.feedByte(this.wire.shift()[1]);
    if (this.wire.length) this.wireAlarm.schedule(this.wire[0][0] - this.ns);
  }

  press(pin, down) { this.mcu.gpio[pin].setInputValue(!down); }
}

/** A PIO with an enabled state machine that is not stalled. */
function pioRunning(pio) {
  return !pio.stopped && pio.machines.some((sm) => sm.enabled && !sm.waiting);
}

/** One PIO clock: its enabled state machines step (rp2040js's own step moves the disabled
 * ones too, so a stalled OUT of a stopped machine takes the words meant for its restart). */
function stepPio(pio) {
  for (const sm of pio.machines) if (sm.enabled) sm.step();
  pio.checkChangedPins();
}

/** The UART (0 or 1) whose TX function a GPIO has. */
export function uartOf(tx) {
  return (((tx >> 2) + 1) >> 1) & 1;      // GP0/12/16/28: UART0; GP4/8/20/24: UART1
}
