#!/usr/bin/env node
// What a handle itself costs to make and release from JavaScript, by design,
// with nothing behind it (no driver, no GPU): the question behind the calls
// that still add more to C than cuda.bindings does (stream create + destroy,
// stream-ordered alloc + free; bench/RESULTS.md). Builds bench/handle-cost/
// handles.cc (g++, node-addon-api and Node's headers) and times, per handle
// made and disposed:
//   native object      a Napi::ObjectWrap per handle, disposed through a
//                      method (what native/handle.h does): the baseline;
//   slot + finalizer   a number naming a native table entry, held by a plain
//                      JavaScript object that the native layer puts a
//                      finalizer on (napi_add_finalizer);
//   slot + registry    the same, the finalizer a FinalizationRegistry's;
//   slot, no finalizer the lower bound: only the two calls.
// Usage: node bench/handle-cost.js
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { median, perCall, writeJson } = require('./common');

function buildAddon() {
  const out = path.join(os.tmpdir(), `cuda-driver-bench-handles-${process.pid}.node`);
  const nodeHeaders = [path.join(path.dirname(process.execPath), '..', 'include', 'node'), process.env.npm_config_nodedir && path.join(process.env.npm_config_nodedir, 'include', 'node')]
    .find((dir) => dir && fs.existsSync(path.join(dir, 'node_api.h')));
  if (!nodeHeaders) throw new Error("Node's headers (node_api.h) are not next to this node; set npm_config_nodedir");
  execFileSync('g++', ['-O2', '-std=c++17', '-shared', '-fPIC', '-DNAPI_DISABLE_CPP_EXCEPTIONS', `-I${require('node-addon-api').include_dir}`,
    `-I${nodeHeaders}`, '-o', out, path.join(__dirname, 'handle-cost', 'handles.cc')], { stdio: 'inherit' });
  return out;
}

function main() {
  const file = buildAddon();
  const addon = require(file);
  fs.unlinkSync(file);
  // The JavaScript side of each design: an object with the handle and a released flag, as lib/disposable.ts has.
  class NativeObjectHandle {
    constructor() { this.native = addon.makeWrapped(); this.released = false; }
    dispose() { this.released = true; this.native.dispose(); }
  }
  class FinalizedSlotHandle {
    constructor() { this.slot = addon.makeSlotFor(this); this.released = false; }
    dispose() { this.released = true; addon.releaseSlot(this.slot); }
  }
  const registry = new FinalizationRegistry((slot) => addon.releaseSlot(slot));
  class RegisteredSlotHandle {
    constructor() { this.slot = addon.makeSlot(); this.released = false; registry.register(this, this.slot, this); }
    dispose() { this.released = true; registry.unregister(this); addon.releaseSlot(this.slot); }
  }
  class BareSlotHandle {
    constructor() { this.slot = addon.makeSlot(); this.released = false; }
    dispose() { this.released = true; addon.releaseSlot(this.slot); }
  }
  const designs = [
    ['native object (baseline)', () => new NativeObjectHandle().dispose()],
    ['slot + finalizer', () => new FinalizedSlotHandle().dispose()],
    ['slot + FinalizationRegistry', () => new RegisteredSlotHandle().dispose()],
    ['slot, no finalizer', () => new BareSlotHandle().dispose()],
  ];
  // Interleaved passes, each design's median of them: the machine's load moves all alike.
  const passes = designs.map(() => []);
  for (let pass = 0; pass < 5; pass++) {
    designs.forEach(([, op], i) => passes[i].push(perCall(op, 1000, 100)));
  }
  const figures = passes.map(median);
  console.log(`Handle made + disposed, nothing behind it (node ${process.version}; ns, median of 5 passes)`);
  const rows = {};
  designs.forEach(([label], i) => {
    rows[label] = { ns: figures[i], ofBaseline: figures[i] / figures[0] };
    console.log(`${label.padEnd(30)} ${figures[i].toFixed(0).padStart(7)} ns  ${(figures[i] / figures[0]).toFixed(3)} of the baseline`);
  });
  writeJson('handle-cost', rows);
}

main();
