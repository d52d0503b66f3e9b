// The disposable base, with a stand-in native handle: dispose() is idempotent,
// `using` releases at the end of the block (also on a throw), and the slot
// number hot calls pass is read once.
import { Disposable } from '../../lib/disposable';
import type { NativeHandle } from '../../lib/native';

class FakeNative implements NativeHandle {
  alive = true;
  get slot(): number {
    return -1;
  }
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

test('the slot number is read from the native handle once, and not after disposal', () => {
  let reads = 0;
  class CountingNative extends FakeNative {
    override get slot(): number {
      reads++;
      if (!this.alive) throw new Error('disposed');
      return 7;
    }
  }
  const thing = new Thing(new CountingNative());
  expect([thing.slot, thing.slot, thing.slot]).toEqual([7, 7, 7]);
  expect(reads).toBe(1);
  const late = new Thing(new CountingNative());
  late.dispose();
  expect(() => late.slot).toThrow('disposed');
});

// Release after garbage collection is the native objects' finalizers' work:
// test/unit/lifetime.test.ts checks it against the stand-in driver.
