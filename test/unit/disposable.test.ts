// The disposable base, with a stand-in native handle: dispose() is idempotent,
// `using` releases at the end of the block (also on a throw), and the
// FinalizationRegistry backstop releases a handle that was never disposed.
import { Disposable } from '../../lib/disposable';
import type { NativeHandle } from '../../lib/native';

class FakeNative implements NativeHandle {
  alive = true;
  readonly slot = -1;
  releases = 0;
  dispose(): void {
    if (this.alive) this.releases++;
    this.alive = false;
  }
}

class Thing extends Disposable<FakeNative> {
  constructor(handle: FakeNative) {
    super(handle);
  }
}

test('dispose is idempotent and reflected by disposed', () => {
  const handle = new FakeNative();
  const thing = new Thing(handle);
  expect(thing.disposed).toBe(false);
  thing.dispose();
  thing.dispose();
  expect(thing.disposed).toBe(true);
  expect(handle.releases).toBe(1);
});

test('using releases at the end of the block, also when it throws', () => {
  const a = new FakeNative();
  {
    using thing = new Thing(a);
    expect(thing.disposed).toBe(false);
  }
  expect(a.releases).toBe(1);

  const b = new FakeNative();
  expect(() => {
    using thing = new Thing(b);
    void thing;
    throw new Error('inside');
  }).toThrow('inside');
  expect(b.releases).toBe(1);
});

test('a handle never disposed is released after garbage collection', async () => {
  // jest runs without --expose-gc; take gc() from V8 for this test.
  const v8 = await import('v8');
  const vm = await import('vm');
  v8.setFlagsFromString('--expose-gc');
  const gc: () => void = vm.runInNewContext('gc');
  const handle = new FakeNative();
  (() => {
    new Thing(handle);
  })();
  for (let i = 0; i < 50 && handle.alive; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(handle.releases).toBe(1);
});
