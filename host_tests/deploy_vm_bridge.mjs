// A real MicroPython REPL on stdin/stdout, for the deploy tool's end-to-end test.
//
// node deploy_vm_bridge.mjs MICROPYTHON_MJS DUMP_JSON [CIRCUITPYTHON_VERSION]
//
// Bytes from stdin go to MicroPython's own event-driven REPL (friendly and raw modes,
// exactly as on a board) and its output goes to stdout. Two things are added:
// - the raw-paste request (Ctrl-E 'A' Ctrl-A) is answered "R\x00" (not supported),
//   because this port's raw-paste reader would block on stdin; mpremote then uses
//   the plain raw REPL;
// - with a version argument, `import sys` returns a copy of sys whose
//   implementation claims to be CircuitPython, so the deploy accepts the board.
// When stdin closes, every file the session created is written to DUMP_JSON
// ({path: base64}) so the test can check the board's filesystem independently.
import { writeFileSync } from "node:fs";

const [moduleUrl, dumpPath, poseAs] = process.argv.slice(2);
const { loadMicroPython } = await import(moduleUrl);
const mp = await loadMicroPython({
  linebuffer: false,
  stdout: (bytes) => process.stdout.write(Buffer.from(bytes)),
  stderr: (bytes) => process.stderr.write(Buffer.from(bytes)),
});

if (poseAs) {
  const version = poseAs.split(".").map(Number).join(", ");
  mp.runPython(`
import sys
class _Implementation:
    name = "circuitpython"
    version = (${version})
class _Sys:
    pass
_board_sys = _Sys()
for _name in dir(sys):
    try:
        setattr(_board_sys, _name, getattr(sys, _name))
    except Exception:
        pass
_board_sys.implementation = _Implementation
sys.modules["sys"] = _board_sys
del _Sys, _board_sys, _name, _Implementation
`);
}

const SYSTEM = new Set(["/tmp", "/home", "/dev", "/proc"]);
function dump(folder, files) {
  for (const name of mp.FS.readdir(folder)) {
    if (name === "." || name === "..") continue;
    const path = (folder === "/" ? "" : folder) + "/" + name;
    if (SYSTEM.has(path)) continue;
    const mode = mp.FS.stat(path).mode;
    if (mp.FS.isDir(mode)) dump(path, files);
    else files[path] = Buffer.from(mp.FS.readFile(path)).toString("base64");
  }
  return files;
}

mp.replInit();
let held = [];
const PASTE_REQUEST = [0x05, 0x41, 0x01];
process.stdin.on("data", (chunk) => {
  for (const byte of chunk) {
    if (byte === PASTE_REQUEST[held.length]) {
      held.push(byte);
      if (held.length === PASTE_REQUEST.length) {
        held = [];
        process.stdout.write(Buffer.from([0x52, 0x00]));
      }
      continue;
    }
    for (const b of held) mp.replProcessChar(b);
    held = [];
    mp.replProcessChar(byte);
  }
});
process.stdin.on("end", () => {
  writeFileSync(dumpPath, JSON.stringify(dump("/", {})));
  process.exit(0);
});
