// Every call that allocates on a device also takes a context of its own
// (options.context), over the stand-in driver: what it makes holds that context,
// which is destroyed only once the last of them is gone.
import fs from 'fs';
import os from 'os';
import path from 'path';
import { fakeDriver, runScript } from '../helpers/subprocess';

const made: Record<string, string> = {
  alloc: 'cuda.DeviceBuffer.alloc(64, { context })',
  from: 'cuda.DeviceBuffer.from(new Uint8Array([1, 2, 3]), { context })',
  pitched: 'cuda.DeviceBuffer.allocPitched(64, 2, { context })',
  managed: 'cuda.DeviceBuffer.allocManaged(64, { context })',
  host: 'cuda.HostBuffer.alloc(64, { context })',
  registered: 'cuda.HostBuffer.register(new ArrayBuffer(64), { context })',
  pool: 'cuda.MemoryPool.create({ context })',
};

test.each(Object.entries(made))('%s: made in options.context, which it keeps alive', (_, expression) => {
  const logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-placement-')), 'log');
  fs.writeFileSync(logFile, '');
  const r = runScript(`
    const fs = require('fs');
    const destroyed = () => fs.readFileSync(process.env.FAKE_CUDA_LOG, 'utf8').split('\\n').filter((l) => l === 'destroy').length;
    const context = cuda.Device.get(0).createContext();
    const thing = ${expression};
    context.dispose();
    const whileHeld = destroyed();
    const bytes = thing instanceof cuda.DeviceBuffer && thing.size === 3 ? Array.from(thing.readSync()) : null;
    thing.dispose();
    report({ whileHeld, afterwards: destroyed(), bytes });`, { CUDA_DRIVER_LIBRARY: fakeDriver(), FAKE_CUDA_LOG: logFile });
  expect(r.stderr).toBe('');
  expect(r.report).toMatchObject({ whileHeld: 0, afterwards: 1 });
  if (expression.includes('from(')) expect(r.report.bytes).toEqual([1, 2, 3]);
});

test('options.context is checked: a Context, not with options.device, and a pool only at its device', () => {
  const r = runScript(`
    const t = (f) => { try { f(); return 'no error'; } catch (e) { return e.constructor.name + ': ' + e.message; } };
    const context = cuda.Device.get(0).createContext();
    report({
      notContext: t(() => cuda.DeviceBuffer.allocPitched(64, 2, { context: {} })),
      both: t(() => cuda.DeviceBuffer.allocManaged(64, { device: 0, context })),
      hostBoth: t(() => cuda.HostBuffer.alloc(64, { device: 0, context })),
      fromBoth: t(() => cuda.DeviceBuffer.from(new Uint8Array(4), { device: 0, context })),
      poolHost: t(() => cuda.MemoryPool.create({ context, location: 'host' })),
      poolNotContext: t(() => cuda.MemoryPool.create({ context: 1 })),
      poolHere: t(() => cuda.MemoryPool.create({ context, location: 0 }).dispose()),
    });`, { CUDA_DRIVER_LIBRARY: fakeDriver() });
  expect(r.stderr).toBe('');
  const both = 'TypeError: give options.device or options.context, not both: a context belongs to one device';
  expect(r.report).toEqual({
    notContext: expect.stringMatching(/^TypeError: options.context must be a Context, got /),
    both, hostBoth: both, fromBoth: both,
    poolHost: 'TypeError: options.location must be device 0, the device of options.context',
    poolNotContext: expect.stringMatching(/^TypeError: options.context must be a Context, got /),
    poolHere: 'no error',
  });
});
