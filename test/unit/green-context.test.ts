// Green contexts over the stand-in driver: its device has 16 SMs, split in
// groups of at least 4, a multiple of 2 (1 and 1 ignoring co-scheduling); a
// green context converts to a context of its own, its streams belong to it, and
// its event records and waits cover those streams. What is checked here is the
// TypeScript layer: the numbers it shows, its validation, which objects a
// stream and a context lead back to, and how long the green context lives.
import fs from 'fs';
import os from 'os';
import path from 'path';
import { distPath, fakeDriver, runScript } from '../helpers/subprocess';

const helpers = `
  const t = (f) => { try { f(); return 'no error'; } catch (e) { return e.constructor.name + ': ' + (e.code ?? '') + ' ' + e.message; } };
  const sms = (r) => r && { smCount: r.smCount, min: r.minPartitionSize, align: r.coscheduledAlignment, device: r.deviceOrdinal };
  const split = (r, o) => { const s = cuda.splitSmResource(r, o); return { groups: s.groups.map((g) => g.smCount), remainder: s.remainder && s.remainder.smCount }; };
  const device = cuda.Device.get(0);`;

function run(body: string, env: Record<string, string> = {}) {
  const r = runScript(`${helpers}
    (async () => { ${body} })().catch((e) => { console.error(e); process.exitCode = 1; });`,
  { CUDA_DRIVER_LIBRARY: fakeDriver(), FAKE_CUDA_VERSION: '13000', ...env });
  if (r.status !== 0 || r.report === undefined) throw new Error(`script failed (${r.status}, ${r.signal}):\n${r.stderr}\n${r.stdout}`);
  return r.report;
}

describe('SM resources', () => {
  test("a device's and a context's SMs, with the smallest group and its alignment", () => {
    const report = run(`
      report({ device: sms(device.smResource()), multiprocessors: device.attribute('multiprocessorCount'),
        context: sms(device.primaryContext.smResource()), created: sms(device.createContext().smResource()),
        inspect: require('util').inspect(device.smResource()), text: String(device.smResource()) });`);
    expect(report).toEqual({
      device: { smCount: 16, min: 4, align: 2, device: 0 },
      multiprocessors: 16,
      context: { smCount: 16, min: 4, align: 2, device: 0 },
      created: { smCount: 16, min: 4, align: 2, device: 0 },
      inspect: 'SmResource { device: 0, smCount: 16 }',
      text: 'SmResource(16 SMs, device 0)',
    });
  });

  test('a split makes groups of minCount rounded to the alignment, as many as asked or as fit, and the rest', () => {
    const report = run(`
      const all = device.smResource();
      report({
        two: split(all, { minCount: 4, groups: 2 }),
        asMany: split(all, { minCount: 5 }),
        smallest: split(all, { minCount: 0 }),
        whole: split(all, { minCount: 16 }),
        tooMany: split(all, { minCount: 8, groups: 5 }),
        fine: split(all, { minCount: 3, ignoreCoscheduling: true }),
        cluster: split(all, { minCount: 8, maxClusterSize: true }),
      });`);
    expect(report).toEqual({
      two: { groups: [4, 4], remainder: 8 },
      asMany: { groups: [6, 6], remainder: 4 },
      smallest: { groups: [4, 4, 4, 4], remainder: null },
      whole: { groups: [16], remainder: null },
      tooMany: { groups: [8, 8], remainder: null },
      fine: { groups: [3, 3, 3, 3, 3], remainder: 1 },
      cluster: { groups: [8, 8], remainder: null },
    });
  });

  test('split options are checked before the driver is asked', () => {
    const report = run(`
      const all = device.smResource();
      report({
        noOptions: t(() => cuda.splitSmResource(all)),
        noMinCount: t(() => cuda.splitSmResource(all, {})),
        tooLarge: t(() => cuda.splitSmResource(all, { minCount: 17 })),
        fraction: t(() => cuda.splitSmResource(all, { minCount: 4.5 })),
        noGroups: t(() => cuda.splitSmResource(all, { minCount: 4, groups: 0 })),
        unknown: t(() => cuda.splitSmResource(all, { minCount: 4, count: 2 })),
        flag: t(() => cuda.splitSmResource(all, { minCount: 4, ignoreCoscheduling: 1 })),
        notResource: t(() => cuda.splitSmResource({ smCount: 16 }, { minCount: 4 })),
      });`);
    expect(report).toEqual({
      noOptions: expect.stringMatching(/^TypeError: .*options must be an object/),
      noMinCount: 'TypeError:  options.minCount must be an integer, got undefined',
      tooLarge: 'RangeError:  options.minCount must be between 0 and 16, got 17',
      fraction: 'TypeError:  options.minCount must be an integer, got 4.5',
      noGroups: 'RangeError:  options.groups must be between 1 and 16, got 0',
      unknown: 'TypeError:  options.count is not an option of splitSmResource; its options are minCount, groups, ignoreCoscheduling, maxClusterSize',
      flag: 'TypeError:  options.ignoreCoscheduling must be a boolean, got 1',
      notResource: 'TypeError:  resource must be a SmResource, got Object',
    });
  });
});

describe('green contexts', () => {
  test('made of a group: its SMs, id, device, and the streams and context that lead back to it', () => {
    const report = run(`
      const [group, other] = cuda.splitSmResource(device.smResource(), { minCount: 8, groups: 2 }).groups;
      const green = cuda.GreenContext.create(device, group);
      const both = cuda.GreenContext.create(0, [other]);
      const stream = green.createStream({ priority: -1 });
      const context = green.toContext();
      const viaContext = cuda.Stream.create({ context });
      const plain = cuda.Stream.create();
      report({
        sms: sms(green.smResource()), inner: split(green.smResource(), { minCount: 4 }),
        id: typeof green.id, distinctIds: green.id !== both.id, device: green.device.ordinal,
        handle: green.handle !== 0n, inspect: require('util').inspect(green),
        streamGreen: stream.greenContext === green, streamContext: stream.context === context,
        priority: stream.priority, nonBlocking: stream.nonBlocking, sameContext: green.toContext() === context,
        contextGreen: context.greenContext === green, contextText: String(context).startsWith('Context(green, device 0'),
        viaContextGreen: viaContext.greenContext === green, plainGreen: plain.greenContext,
        primaryGreen: device.primaryContext.greenContext, otherGreen: both.createStream().greenContext === both,
        contextSms: sms(context.smResource()),
        affinity: t(() => context.execAffinity()), primaryAffinity: device.primaryContext.execAffinity('smCount'),
        supported: device.supportsExecAffinity(), badAffinity: t(() => context.execAffinity('threads')),
      });`);
    expect(report).toEqual({
      sms: { smCount: 8, min: 4, align: 2, device: 0 },
      inner: { groups: [4, 4], remainder: null },
      id: 'bigint', distinctIds: true, device: 0, handle: true, inspect: 'GreenContext { device: 0 }',
      streamGreen: true, streamContext: true, priority: -1, nonBlocking: true, sameContext: true,
      contextGreen: true, contextText: true, viaContextGreen: true, plainGreen: null, primaryGreen: null, otherGreen: true,
      contextSms: { smCount: 8, min: 4, align: 2, device: 0 },
      affinity: expect.stringMatching(/^CudaError: CUDA_ERROR_INVALID_CONTEXT /), primaryAffinity: 16, supported: true,
      badAffinity: "RangeError:  type must be one of smCount; got 'threads'",
    });
  });

  test('groups and the remainder of one split make one green context; resources are checked', () => {
    const report = run(`
      const { groups, remainder } = cuda.splitSmResource(device.smResource(), { minCount: 4, groups: 2 });
      const [a] = cuda.splitSmResource(device.smResource(), { minCount: 4, groups: 1 }).groups;
      const disposed = cuda.splitSmResource(device.smResource(), { minCount: 4, groups: 1 }).groups[0];
      disposed.dispose();
      report({
        joined: cuda.GreenContext.create(device, [...groups, remainder]).smResource().smCount,
        whole: cuda.GreenContext.create(device, device.smResource()).smResource().smCount,
        twoSplits: t(() => cuda.GreenContext.create(device, [groups[0], a])),
        empty: t(() => cuda.GreenContext.create(device, [])),
        notResource: t(() => cuda.GreenContext.create(device, [groups[0], {}])),
        notList: t(() => cuda.GreenContext.create(device, 'all')),
        otherDevice: t(() => cuda.GreenContext.create(1, groups[0])),
        disposed: t(() => cuda.GreenContext.create(device, disposed)),
        unknown: t(() => cuda.GreenContext.create(device, a, { stream: true })),
        noDefaultStream: t(() => cuda.GreenContext.create(device, a, { defaultStream: false })),
        badStreamOption: t(() => cuda.GreenContext.create(device, a).createStream({ nonBlocking: true })),
        badPriority: t(() => cuda.GreenContext.create(device, a).createStream({ priority: 'high' })),
      });`);
    expect(report).toEqual({
      joined: 16,
      whole: 16,
      twoSplits: expect.stringMatching(/^CudaError: CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION cuDevResourceGenerateDesc/),
      empty: 'RangeError:  resources must hold at least one SmResource',
      notResource: 'TypeError:  resources[1] must be a SmResource, got Object',
      notList: "TypeError:  resources must be an array, got 'all'",
      otherDevice: 'RangeError:  ordinal 1 is out of range: 1 device visible',
      disposed: expect.stringMatching(/^DisposedError: ERR_CUDA_DISPOSED /),
      unknown: 'TypeError:  options.stream is not an option of GreenContext.create; its options are defaultStream',
      noDefaultStream: expect.stringMatching(/^CudaError: CUDA_ERROR_INVALID_VALUE cuGreenCtxCreate/),
      badStreamOption: 'TypeError:  options.nonBlocking is not an option of GreenContext.createStream; its options are priority',
      badPriority: "TypeError:  options.priority must be an integer, got 'high'",
    });
  });

  test('events recorded on a green context cover its streams only; a wait holds its streams back', () => {
    const report = run(`
      const library = cuda.Library.load('FAKE\\nkernel k 8');
      const launch = (stream) => library.kernel('k').launch({ grid: 1, block: 1, stream }, [cuda.arg.u64(0n)]);
      const [a, b] = cuda.splitSmResource(device.smResource(), { minCount: 8, groups: 2 }).groups.map((g) => cuda.GreenContext.create(device, g));
      const busy = a.createStream();
      const idle = b.createStream();
      launch(busy);
      const ofA = cuda.Event.create(), ofB = cuda.Event.create(), ofContext = cuda.Event.create(), ofPrimary = cuda.Event.create();
      a.recordEvent(ofA);
      b.recordEvent(ofB);
      b.toContext().recordEvent(ofContext);
      device.primaryContext.recordEvent(ofPrimary);
      const recorded = { a: ofA.query(), b: ofB.query(), bContext: ofContext.query(), primary: ofPrimary.query() };
      b.waitEvent(ofA);
      const held = cuda.Event.create();
      b.recordEvent(held);
      const heldQuery = held.query();
      const viaContext = cuda.Event.create();
      const c = cuda.GreenContext.create(device, cuda.splitSmResource(device.smResource(), { minCount: 4, groups: 1 }).groups[0]);
      c.createStream();
      c.toContext().waitEvent(ofA);
      c.recordEvent(viaContext);
      const viaContextQuery = viaContext.query();
      await held.synchronize();
      report({ recorded, heldQuery, viaContextQuery, afterwards: [ofA.query(), held.query(), viaContext.query(), idle.query()],
        notEvent: t(() => a.recordEvent({})), notEventWait: t(() => device.primaryContext.waitEvent(1)) });`,
    { FAKE_CUDA_WORK_MS: '2000' });
    expect(report).toEqual({
      recorded: { a: false, b: true, bContext: true, primary: false },
      heldQuery: false,
      viaContextQuery: false,
      afterwards: [true, true, true, true],
      notEvent: 'TypeError:  event must be an Event',
      notEventWait: 'TypeError:  event must be an Event',
    });
  });

  test('its streams, its context and events keep it alive; dispose() ends only the handle', () => {
    const logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-green-')), 'log');
    fs.writeFileSync(logFile, '');
    const report = run(`
      const log = () => require('fs').readFileSync(process.env.FAKE_CUDA_LOG, 'utf8').split('\\n').filter((l) => l.startsWith('green'));
      const [g8] = cuda.splitSmResource(device.smResource(), { minCount: 8, groups: 1 }).groups;
      const [g4] = cuda.splitSmResource(device.smResource(), { minCount: 4, groups: 1 }).groups;
      const green = cuda.GreenContext.create(device, g8);
      const stream = green.createStream();
      green.dispose();
      const afterDispose = log();
      const disposedUse = t(() => green.id);
      const stillGreen = stream.greenContext === green;
      stream.dispose();
      await new Promise((r) => setTimeout(r, 10));
      const afterStream = log();
      const other = cuda.GreenContext.create(device, g4);
      const context = other.toContext();
      other[Symbol.dispose]();
      const withContext = log();
      const buffer = cuda.DeviceBuffer.alloc(64, { context });
      context.dispose();
      const withBuffer = log();
      buffer.dispose();
      await new Promise((r) => setTimeout(r, 10));
      report({ afterDispose, disposedUse, stillGreen, afterStream, withContext, withBuffer, end: log(),
        text: String(other) });`, { FAKE_CUDA_LOG: logFile });
    expect(report).toEqual({
      afterDispose: ['green create 8'],
      disposedUse: expect.stringMatching(/^DisposedError: ERR_CUDA_DISPOSED /),
      stillGreen: true,
      afterStream: ['green create 8', 'green destroy 8'],
      withContext: ['green create 8', 'green destroy 8', 'green create 4'],
      withBuffer: ['green create 8', 'green destroy 8', 'green create 4'],
      end: ['green create 8', 'green destroy 8', 'green create 4', 'green destroy 4'],
      text: 'GreenContext(disposed)',
    });
  });

  test("the addon's entry reads every resource before it looks one up: a getter that disposes one ends in a clear error", () => {
    const report = run(`
      const { native } = require(${JSON.stringify(path.join(distPath, 'native.js'))});
      const [a, b] = cuda.splitSmResource(device.smResource(), { minCount: 4, groups: 2 }).groups;
      // In a later task, as a program's resources are: a handle disposed in the task that made it frees its slot at once.
      setImmediate(() => {
        const list = Object.defineProperty([a.slot], 1, { get: () => { a.dispose(); return b.slot; }, enumerable: true });
        report({ disposed: t(() => native.createGreenContext(0, list, 1)), notSlot: t(() => native.createGreenContext(0, ['x'], 1)) });
      });`);
    expect(report).toEqual({
      disposed: expect.stringMatching(/^DisposedError: ERR_CUDA_DISPOSED DevResource has been disposed/),
      notSlot: 'TypeError:  resources[i] must be a DevResource',
    });
  });

  test('a driver older than a call says which call and version it needs', () => {
    const report = run(`
      const green = cuda.GreenContext.create(device, device.smResource());
      report({ id: t(() => green.id), stream: t(() => green.createStream()) });`, { FAKE_CUDA_VERSION: '12040' });
    expect(report.id).toMatch(/cuGreenCtxGetId/);
    expect(report.stream).toMatch(/cuGreenCtxStreamCreate/);
  });
});
