// Runs Python code inside the MicroPython WebAssembly VM (host_tests/mpvm.py drives it).
//
//   node run.mjs SPEC.json
//
// SPEC: {
//   "packages":  [[name, host_path], ...]  dir -> /lib/<name>/ (recursive), file -> /lib/<name>.py
//   "steps":     [code, ...]               each runs in its own top-level VM call; globals persist.
//                                          The VM only collects garbage between calls.
//   "heapsize":  bytes                     first GC heap area (default 1 MiB)
//   "heap_cap":  bytes or null             hard cap: the GC heap can never grow past heap_cap
//   "pystack":   words (4 bytes) or null   Python stack size (default 2048 words)
//   "traceback": path                      where a Python exception is reported:
//                                          {"step": index, "traceback": text}
// }
// The VM's stdout goes to stdout. Exit codes: 0 ok, 3 Python raised (traceback file written,
// later steps skipped), 2 JavaScript/VM failure (short message on stderr), 64 bad usage.
// A MicroPython fatal error spins forever in wasm: the caller must kill us on a timeout.

import fs from "node:fs";
import path from "node:path";

const PKG = "@micropython/micropython-webassembly-pyscript";
const MIN_NODE = 20;
// Free gaps left for JS-side mallocs (code buffers, proxies) when capped. MicroPython grows
// its heap by an area at least as large as the heap it has (py/gc.c gc_try_add_heap), so with
// a heap of MIN_CAP or more it can never fit a new area into one of these gaps.
const GAP = 4096;
const GAPS = 64;
const MIN_CAP = 8 * GAP;

function fail(code, message) {
  process.stderr.write(`run.mjs: ${message}\n`);
  process.exit(code);
}

if (Number(process.versions.node.split(".")[0]) < MIN_NODE) {
  fail(64, `Node.js ${MIN_NODE}+ required, this is ${process.versions.node}`);
}
if (process.argv.length !== 3) fail(64, "usage: node run.mjs SPEC.json");
const spec = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const cap = spec.heap_cap ?? null;
if (cap !== null && cap < MIN_CAP) fail(64, `heap_cap must be at least ${MIN_CAP} bytes`);

// The module does not export its wasm memory; catch it at instantiation so the cap can
// make growth fail.
let memory = null;
const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async (...args) => {
  const result = await instantiate(...args);
  const instance = result.instance ?? result;
  for (const value of Object.values(instance.exports)) {
    if (value instanceof WebAssembly.Memory) memory = value;
  }
  return result;
};

let loadMicroPython;
try {
  ({ loadMicroPython } = await import(PKG));
} catch (error) {
  fail(2, `cannot load ${PKG} (run: npm ci --prefix host_tests/vm): ${error.message}`);
}

// Line-buffered stdout, written synchronously (pipes are synchronous on Linux) so a
// killed run still shows what it printed so far. The traceback goes to its own buffer.
let line = [];
const decoder = new TextDecoder();
function flush() {
  if (line.length) process.stdout.write(decoder.decode(new Uint8Array(line)));
  line = [];
}
function toStdout(bytes) {
  for (const c of bytes) {
    line.push(c);
    if (c === 10) flush();
  }
}
let sink = toStdout;

function copyInto(mp, host, target) {
  if (fs.statSync(host).isDirectory()) {
    mp.FS.mkdir(target);
    for (const entry of fs.readdirSync(host)) {
      if (entry === "__pycache__" || entry.endsWith(".pyc")) continue;
      copyInto(mp, path.join(host, entry), `${target}/${entry}`);
    }
  } else {
    mp.FS.writeFile(target, fs.readFileSync(host));
  }
}

// Catches every exception of a step, so none escapes to JS (an uncaught MemoryError can
// hang the VM), and prints it later from a fresh call.
// Every step compiles under the one file name "<step>": a file name becomes an interned
// string that is never freed, and a name per step would leak ~28 bytes a step.
// gc.collect() only marks a collection as pending: the VM collects when the call returns.
const HARNESS = `
import gc, sys
_mpvm_ns = {"__name__": "__main__"}
_mpvm_exc = None

def _mpvm_step(i):
    global _mpvm_exc
    try:
        with open("/mpvm/step%d.py" % i) as f:
            exec(compile(f.read(), "<step>", "exec"), _mpvm_ns)
    except BaseException as e:
        _mpvm_exc = e
    gc.collect()

def _mpvm_report():
    global _mpvm_exc
    e, _mpvm_exc = _mpvm_exc, None
    if e is None:
        return False
    sys.print_exception(e)
    return True
`;

function applyCap(mp) {
  // No more wasm pages: malloc can only use memory the module already has...
  memory.grow = () => {
    throw new RangeError("mpvm heap cap");
  };
  // ...and we take all of that except small gaps for the JS glue's own mallocs.
  const M = mp._module;
  const gaps = [];
  for (let i = 0; i < GAPS; i++) {
    gaps.push(M._malloc(GAP));
    M._malloc(16); // keeps the gaps apart once freed
  }
  for (let size = 1 << 26; size >= 8; ) {
    if (!M._malloc(size)) size >>= 1;
  }
  for (const p of gaps) M._free(p);
}

async function start() {
  const options = {
    heapsize: cap ?? spec.heapsize ?? 1 << 20,
    linebuffer: false,
    stdout: (bytes) => sink(bytes),
    stderr: (bytes) => process.stderr.write(bytes),
  };
  if (spec.pystack) options.pystack = spec.pystack;
  const mp = await loadMicroPython(options);
  if (!mp.FS.analyzePath("/lib").exists) mp.FS.mkdir("/lib");
  for (const [name, host] of spec.packages ?? []) {
    copyInto(mp, host, fs.statSync(host).isDirectory() ? `/lib/${name}` : `/lib/${name}.py`);
  }
  mp.FS.mkdir("/mpvm");
  (spec.steps ?? []).forEach((code, i) => mp.FS.writeFile(`/mpvm/step${i}.py`, code));
  mp.runPython(HARNESS);
  if (cap !== null) applyCap(mp);
  return mp;
}

function runSteps(mp) {
  const steps = spec.steps ?? [];
  const step = mp.globals.get("_mpvm_step");
  const report = mp.globals.get("_mpvm_report");
  for (let i = 0; i < steps.length; i++) {
    step(i);
    // Report in a fresh call: the GC has run in between, so printing has memory to use.
    const tb = [];
    sink = (bytes) => tb.push(...bytes);
    try {
      if (report()) {
        const traceback = decoder.decode(new Uint8Array(tb));
        fs.writeFileSync(spec.traceback, JSON.stringify({ step: i, traceback }));
        return 3;
      }
    } finally {
      sink = toStdout;
    }
  }
  return 0;
}

try {
  process.exitCode = runSteps(await start());
} catch (error) {
  flush();
  fail(2, `VM failure: ${error.name}: ${String(error.message).slice(0, 2000)}`);
}
flush();
