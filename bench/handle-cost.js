#!/usr/bin/env node
// What a handle itself costs to make and release from JavaScript, by design,
// with nothing behind it (no driver, no GPU): the question behind the calls
// that still add more to C than cuda.bindings does (stream create + destroy,
// stream-ordered alloc + free; bench/RESULTS.md). Builds bench/handle-cost/
// handles.cc (g++, node-addon-api and Node's headers) and times, per handle
// made and disposed:
//   native object      a Napi::ObjectWrap per handle, disposed through a
//                      method (what native/core/handle.h does): the baseline;
//   slot + finalizer   a number naming a native table entry, held by a plain
//                      JavaScript object that the native layer puts a
//                      finalizer on (napi_add_finalizer);
//   slot + registry    the same, the finalizer a FinalizationRegistry's,
//                      never unregistered (what lib/disposable.ts does: the
//                      callback finds a stale number and ignores it);
//   ... + unregister   the same, unregistered on dispose;
//   slot, no finalizer the lower bound: only the two calls.
// Two figures each: per call (the median batch, as the suite measures calls:
// most batches see no collection) and in all (the total time of 200 batches,
// each followed by a turn of the event loop, over the calls: collections and
// finalizers included, which a finalizer per object makes dear).
// Usage: node bench/handle-cost.js
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const v8 = require('v8');
const vm = require('vm');
const { median, now, perCall, writeJson } = require('./common');

function buildAddon() {
  const out = path.join(os.tmpdir(), `cuda-driver-bench-handles-${process.pid}.node`);
  const nodeHeaders = [path.join(path.dirname(process.execPath), '..', 'include', 'node'), process.env.npm_config_nodedir && path.join(process.env.npm_config_nodedir, 'include', 'node')]
    .find((dir) => dir && fs.existsSync(path.join(dir, 'node_api.h')));
  if (!nodeHeaders) throw new Error("Node's headers (node_api.h) are not next to this node; set npm_config_nodedir");
  execFileSync('g++', ['-O2', '-std=c++17', '-shared', '-fPIC', '-DNAPI_DISABLE_CPP_EXCEPTIONS', `-I${require('node-addon-api').include_dir}`,
    `-I${nodeHeaders}`, '-o', out, path.join(__dirname, 'handle-cost', 'handles.cc')], { stdio: 'inherit' });
  return out;
}

async function main() {
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
    constructor() { this.slot = addon.makeSlot(); this.released = false; registry.register(this, this.slot); }
    dispose() { this.released = true; addon.releaseSlot(this.slot); }
  }
  class UnregisteredSlotHandle {
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
    ['slot + registry', () => new RegisteredSlotHandle().dispose()],
    ['slot + registry + unregister', () => new UnregisteredSlotHandle().dispose()],
    ['slot, no finalizer', () => new BareSlotHandle().dispose()],
  ];
  // Interleaved passes, each design's median of them: the machine's load moves all alike.
  const passes = designs.map(() => ({ perCall: [], inAll: [] }));
  for (let pass = 0; pass < 5; pass++) {
    for (const [i, [, op]] of designs.entries()) {
      passes[i].perCall.push(perCall(op, 1000, 100));
      passes[i].inAll.push(await inAll(op, 5000, 200));
    }
  }
  console.log(`Handle made + disposed, nothing behind it (node ${process.version}; ns, median of 5 passes)`);
  console.log(`${''.padEnd(30)} ${'per call'.padStart(9)} ${'in all'.padStart(9)}  (in all: collections and finalizers included)`);
  const rows = {};
  const baseline = median(passes[0].inAll);
  designs.forEach(([label], i) => {
    const figures = { ns: median(passes[i].perCall), inAllNs: median(passes[i].inAll) };
    rows[label] = { ...figures, inAllOfBaseline: figures.inAllNs / baseline };
    console.log(`${label.padEnd(30)} ${figures.ns.toFixed(0).padStart(9)} ${figures.inAllNs.toFixed(0).padStart(9)}  ${(figures.inAllNs / baseline).toFixed(3)} of the baseline in all`);
  });
  writeJson('handle-cost', rows);
}

function collectGarbage() {
  v8.setFlagsFromString('--expose-gc');
  vm.runInNewContext('gc')();
}

// Nanoseconds per call over `rounds` batches, each followed by a turn of the
// event loop (where finalizers and registry callbacks run), wall-clock time in all.
async function inAll(op, batch, rounds) {
  // Starts clean: the garbage of the design before, and its finalizers, are not this one's.
  for (let i = 0; i < 3; i++) {
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const t0 = now();
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < batch; i++) op(i);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return (now() - t0) / (batch * rounds);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
