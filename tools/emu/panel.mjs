/**
 * An ST7789 panel on an SPI bus, as the firmware drives it: the bytes it sends, with the
 * DC line saying command or data and CS selecting the panel.
 *
 * Only what a picture and its timing need: CASET/RASET set the window, RAMWR fills it
 * with RGB565 pixels (big-endian, as displayio sends them), MADCTL is noted, SLPIN and
 * DISPOFF turn the picture dark. Pixels are kept in the controller's address space, which
 * is the picture the firmware means (it sets MADCTL so that its x and y are the
 * addresses), so a screenshot is the written area of that space. A refresh is a burst of
 * RAMWR windows: it starts with the first pixel command and ends when no pixel has come
 * for `gapNs` (displayio sends a refresh's rectangles back to back).
 */

const CASET = 0x2a;
const RASET = 0x2b;
const RAMWR = 0x2c;
const MADCTL = 0x36;
const SLPIN = 0x10;
const SLPOUT = 0x11;
const DISPOFF = 0x28;
const DISPON = 0x29;
const SIZE = 320;           // the address space kept: 320 x 320 covers every ST7789 window

export class Panel {
  constructor({ gapNs = 2e6 } = {}) {
    this.pixels = new Uint16Array(SIZE * SIZE);
    this.written = new Uint8Array(SIZE * SIZE);
    this.gapNs = gapNs;
    this.command = -1;
    this.args = [];
    this.x0 = 0; this.x1 = SIZE - 1; this.y0 = 0; this.y1 = SIZE - 1;
    this.x = 0; this.y = 0;
    this.high = -1;             // the first byte of a pixel, waiting for its second
    this.madctl = 0;
    this.on = false;
    this.bounds = null;         // [x0, y0, x1, y1] of every pixel ever written
    this.refreshes = [];        // {start, end, pixels, windows}
    this.current = null;
    this.lastPixelNs = 0;
    this.sent = 0;              // pixels and windows ever sent (a probe's refresh counts its own)
    this.windows = 0;
  }

  /** One byte from the bus at emulated time `ns`; `data` is the DC line (high = data). */
  byte(value, data, ns) {
    if (!data) {
      this.command = value;
      this.args = [];
      this.high = -1;
      if (value === RAMWR) {
        this.x = this.x0;
        this.y = this.y0;
        this.beginWindow(ns);
      } else if (value === SLPIN || value === DISPOFF) {
        this.on = false;
      } else if (value === DISPON || value === SLPOUT) {
        this.on = value === DISPON ? true : this.on;
      }
      return;
    }
    if (this.command === RAMWR) {
      if (this.high < 0) {
        this.high = value;
        return;
      }
      this.pixel((this.high << 8) | value, ns);
      this.high = -1;
      return;
    }
    this.args.push(value);
    if (this.command === CASET && this.args.length === 4) {
      this.x0 = (this.args[0] << 8) | this.args[1];
      this.x1 = (this.args[2] << 8) | this.args[3];
    } else if (this.command === RASET && this.args.length === 4) {
      this.y0 = (this.args[0] << 8) | this.args[1];
      this.y1 = (this.args[2] << 8) | this.args[3];
    } else if (this.command === MADCTL && this.args.length === 1) {
      this.madctl = value;
    }
  }

  beginWindow(ns) {
    this.windows += 1;
    if (this.current === null || ns - this.lastPixelNs > this.gapNs) {
      this.endRefresh();
      this.current = { start: ns, end: ns, pixels: 0, windows: 0 };
    }
    this.current.windows += 1;
  }

  pixel(colour, ns) {
    const { x, y } = this;
    this.sent += 1;
    if (x < SIZE && y < SIZE) {
      const i = y * SIZE + x;
      this.pixels[i] = colour;
      if (!this.written[i]) {
        this.written[i] = 1;
        const b = this.bounds;
        if (b === null) {
          this.bounds = [x, y, x, y];
        } else {
          if (x < b[0]) b[0] = x;
          if (y < b[1]) b[1] = y;
          if (x > b[2]) b[2] = x;
          if (y > b[3]) b[3] = y;
        }
      }
    }
    if (this.current !== null) {
      this.current.pixels += 1;
      this.current.end = ns;
    }
    this.lastPixelNs = ns;
    if (x >= this.x1) {
      this.x = this.x0;
      this.y = y >= this.y1 ? this.y0 : y + 1;
    } else {
      this.x = x + 1;
    }
  }

  /** Close the refresh in progress, if any (called when time has moved on). */
  endRefresh() {
    if (this.current !== null && this.current.pixels > 0) {
      this.refreshes.push(this.current);
    }
    this.current = null;
  }

  /** True while a refresh may still be going on at `ns`. */
  drawing(ns) {
    return this.current !== null && ns - this.lastPixelNs <= this.gapNs;
  }

  /**
   * The written area as the player sees it: [width, height, rgb bytes], RGB565 widened to
   * 8 bits. `rotation` is displayio's (0, 90, 180, 270): with one, displayio sends the
   * picture turned in the panel's own rows, so it is turned back here.
   */
  picture(rotation = 0) {
    const b = this.bounds || [0, 0, 0, 0];
    const w = b[2] - b[0] + 1;
    const h = b[3] - b[1] + 1;
    const turned = rotation === 90 || rotation === 270;
    const [ow, oh] = turned ? [h, w] : [w, h];
    const rgb = new Uint8Array(ow * oh * 3);
    let o = 0;
    for (let y = 0; y < oh; y++) {
      for (let x = 0; x < ow; x++) {
        // where (x, y) of the picture is in the written area
        const [ax, ay] = rotation === 270 ? [y, h - 1 - x] : rotation === 90 ? [w - 1 - y, x]
          : rotation === 180 ? [w - 1 - x, h - 1 - y] : [x, y];
        const c = this.on ? this.pixels[(b[1] + ay) * SIZE + b[0] + ax] : 0;
        const r = c >> 11, g = (c >> 5) & 63, bl = c & 31;
        rgb[o++] = (r << 3) | (r >> 2);
        rgb[o++] = (g << 2) | (g >> 4);
        rgb[o++] = (bl << 3) | (bl >> 2);
      }
    }
    return [ow, oh, rgb];
  }
}
