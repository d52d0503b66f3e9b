// Leak accounting from the library's driver call counters: for each kind of
// resource, the successful calls that make one less those that release one.
// A run that releases everything it made balances to zero for every kind; a
// call that failed (injected or real) made nothing. Usable in jest and in child
// processes alike (it imports nothing).

/** What makes and what releases each kind of resource (primary contexts stay retained by design). */
export const resourcePairs: ReadonlyArray<{ kind: string; made: readonly string[]; released: readonly string[] }> = [
  { kind: 'device memory', made: ['cuMemAlloc', 'cuMemAllocPitch', 'cuMemAllocManaged', 'cuMemPoolImportPointer'], released: ['cuMemFree'] },
  { kind: 'stream-ordered memory', made: ['cuMemAllocAsync', 'cuMemAllocFromPoolAsync'], released: ['cuMemFreeAsync'] },
  { kind: 'pinned host memory', made: ['cuMemAllocHost', 'cuMemHostAlloc'], released: ['cuMemFreeHost'] },
  { kind: 'registered host memory', made: ['cuMemHostRegister'], released: ['cuMemHostUnregister'] },
  { kind: 'stream', made: ['cuStreamCreate', 'cuStreamCreateWithPriority'], released: ['cuStreamDestroy'] },
  { kind: 'event', made: ['cuEventCreate', 'cuIpcOpenEventHandle'], released: ['cuEventDestroy'] },
  { kind: 'context', made: ['cuCtxCreate'], released: ['cuCtxDestroy'] },
  { kind: 'memory pool', made: ['cuMemPoolCreate', 'cuMemPoolImportFromShareableHandle'], released: ['cuMemPoolDestroy'] },
  { kind: 'module', made: ['cuModuleLoadDataEx'], released: ['cuModuleUnload'] },
  { kind: 'library', made: ['cuLibraryLoadData', 'cuLibraryLoadFromFile'], released: ['cuLibraryUnload'] },
  { kind: 'graph executable', made: ['cuGraphInstantiate', 'cuGraphInstantiateWithParams'], released: ['cuGraphExecDestroy'] },
  { kind: 'physical allocation', made: ['cuMemCreate', 'cuMemRetainAllocationHandle', 'cuMemImportFromShareableHandle'], released: ['cuMemRelease'] },
  { kind: 'address reservation', made: ['cuMemAddressReserve'], released: ['cuMemAddressFree'] },
  { kind: 'mapping', made: ['cuMemMap'], released: ['cuMemUnmap'] },
  { kind: 'IPC mapping', made: ['cuIpcOpenMemHandle'], released: ['cuIpcCloseMemHandle'] },
];

export interface CallCountLike {
  name: string;
  calls: number;
  errors: number;
}

/** made − released per kind (only kinds that are off balance, or all with everything = true). */
export function resourceBalance(counts: readonly CallCountLike[], everything = false): Record<string, number> {
  const ok = new Map(counts.map((c) => [c.name, c.calls - c.errors]));
  const sum = (names: readonly string[]) => names.reduce((n, name) => n + (ok.get(name) ?? 0), 0);
  const out: Record<string, number> = {};
  for (const { kind, made, released } of resourcePairs) {
    const balance = sum(made) - sum(released);
    if (balance !== 0 || everything) out[kind] = balance;
  }
  return out;
}

/**
 * The balance once releases that come later (the reaper's, after GPU work that
 * outlived its worker thread: native/core/reaper.h) have had their turn: read until
 * it is `expected` (by default empty), or boundMs have passed (then the last one).
 */
export async function settledBalance(read: () => readonly CallCountLike[], boundMs: number,
  expected: Record<string, number> = {}): Promise<Record<string, number>> {
  const until = Date.now() + boundMs;
  const text = (b: Record<string, number>) => JSON.stringify(Object.entries(b).sort());
  for (;;) {
    (globalThis as { gc?: () => void }).gc?.();
    const balance = resourceBalance(read());
    if (text(balance) === text(expected) || Date.now() >= until) return balance;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Successful calls of the functions that make resources, all kinds together. */
export function resourcesMade(counts: readonly CallCountLike[]): number {
  const ok = new Map(counts.map((c) => [c.name, c.calls - c.errors]));
  return resourcePairs.reduce((n, p) => n + p.made.reduce((m, name) => m + (ok.get(name) ?? 0), 0), 0);
}
