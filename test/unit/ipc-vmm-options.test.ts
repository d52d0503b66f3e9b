// Every options object of the sharing (lib/ipc) and virtual memory (lib/vmm)
// calls is checked for keys the call does not read: a misspelled or misplaced
// option is a TypeError naming it, before anything reaches the driver. Valid
// calls pass. Against the stand-in driver.
import { fakeDriver, runScript } from '../helpers/subprocess';

test('unknown keys of sharing and virtual memory options are TypeErrors naming the key and the call', () => {
  const r = runScript(`(async () => {
    const attempt = async (f) => { try { await f(); return 'no error'; } catch (e) { return e.constructor.name + ': ' + e.message; } };
    const M = 1 << 20;
    const stream = cuda.Stream.create();
    const pool = cuda.MemoryPool.create({ handleTypes: ['posixFileDescriptor'] });
    const pooled = cuda.DeviceBuffer.allocAsync(4096, stream, { pool });
    const plain = cuda.DeviceBuffer.alloc(4096);
    const mapping = cuda.Mapping.alloc(2 * M, { handleTypes: ['posixFileDescriptor'] });
    const allocation = cuda.PhysicalAllocation.create(2 * M);
    const reservation = cuda.AddressReservation.reserve(2 * M);
    const server = cuda.FdChannelServer.listen();
    const exported = cuda.shareMemory(mapping);
    const event = cuda.Event.create({ interprocess: true });
    const handle = Buffer.alloc(64); handle[0] = 9;
    const bogus = { bogus: 1 };
    const notConnected = Object.create(cuda.FdChannel.prototype);  // passes instanceof; never used
    const calls = {
      shareMemory: () => cuda.shareMemory(plain, { viewOffset: 0, bogus: 1 }),
      shareMemoryOffset: () => cuda.shareMemory(plain, { offset: 0 }),
      openSharedMemory: () => cuda.openSharedMemory(exported.descriptor, { chanel: server }),
      receiveSharedMemory: () => cuda.receiveSharedMemory(notConnected, bogus),
      openSharedEvent: () => cuda.openSharedEvent(cuda.shareEvent(event), { devices: 0 }),
      exportPool: () => cuda.exportPool(pool, { type: 'fabric' }),
      importPool: () => cuda.importPool(3, { identity: 'x', ordinal: 0 }),
      importPoolPointer: () => cuda.importPoolPointer(pool, new Uint8Array(64), { bytes: 1, size: 1 }),
      openIpcMemHandle: () => cuda.openIpcMemHandle(handle, { length: 1 }),
      openIpcEventHandle: () => cuda.openIpcEventHandle(handle, bogus),
      send: () => exported.send(notConnected, { timeout: 1 }),
      listen: () => cuda.FdChannelServer.listen(undefined, { backLog: 1 }),
      accept: () => server.accept({ timeout: 1 }),
      connect: () => cuda.FdChannel.connect(server.address, { peer: 1 }),
      channelSend: () => notConnected.send({}, [], { timeout: 1 }),
      channelReceive: () => notConnected.receive({ timeout: 1 }),
      reserve: () => cuda.AddressReservation.reserve(M, { align: 0 }),
      map: () => reservation.map(allocation, { offst: 0 }),
      mappingAlloc: () => cuda.Mapping.alloc(M, { handleType: 'posixFileDescriptor' }),
      physicalCreate: () => cuda.PhysicalAllocation.create(M, { access: [] }),
      physicalImport: () => cuda.PhysicalAllocation.import(3, { bytes: M, size: M }),
      granularity: () => cuda.allocationGranularity({ granularity: 'minimum' }),
      growable: () => cuda.GrowableBuffer.create({ maxSize: 4 * M, initialSize: 0 }),
      dmaBuf: () => cuda.exportDmaBuf(plain, { pci: true }),
      valid: [
        () => cuda.Mapping.alloc(M, { handleTypes: ['posixFileDescriptor'], granularity: 'minimum', access: [{ location: 0, access: 'readwrite' }] }).dispose(),
        () => cuda.PhysicalAllocation.create(M, { location: 0, compression: false, gpuDirectRdma: false, hardwareDecompress: false, granularity: 'recommended' }).dispose(),
        () => cuda.allocationGranularity({ location: 0, handleTypes: [] }),
        () => cuda.AddressReservation.reserve(M, { device: 0, alignment: 0, address: 0n }).dispose(),
        () => cuda.GrowableBuffer.create({ maxSize: 4 * M, size: M, device: 0, handleTypes: [], access: [] }).dispose(),
        () => cuda.shareMemory(mapping, { viewOffset: 0, viewBytes: M, handleType: 'posixFileDescriptor' }).dispose(),
        () => cuda.exportPool(pool, { handleType: 'posixFileDescriptor' }).dispose(),
      ],
    };
    const out = {};
    for (const [name, f] of Object.entries(calls)) out[name] = Array.isArray(f) ? await Promise.all(f.map(attempt)) : await attempt(f);
    report(out);
    [exported, server, event, reservation, allocation, mapping, pooled, plain, pool, stream].forEach((x) => x.dispose());
  })().catch((e) => { console.error(e && e.stack || e); process.exit(1); });`,
  { CUDA_DRIVER_LIBRARY: fakeDriver() });
  expect(r.stderr).toBe('');
  const not = (key: string, call: string, rest = '') => `TypeError: options.${key} is not an option of ${call}; ${rest}`;
  expect(r.report).toEqual({
    shareMemory: not('bogus', 'shareMemory', 'its options are viewOffset, viewBytes, handleType'),
    shareMemoryOffset: not('offset', 'shareMemory', "the range is the importer's view, not a boundary (the importer can reach whole allocations); pass options.viewOffset"),
    openSharedMemory: not('chanel', 'openSharedMemory', 'its options are channel, fds, device, exporterIsPeer, timeoutMs, signal'),
    receiveSharedMemory: not('bogus', 'receiveSharedMemory', 'its options are device, exporterIsPeer, timeoutMs, signal'),
    openSharedEvent: not('devices', 'openSharedEvent', 'its options are device'),
    exportPool: not('type', 'exportPool', 'its options are handleType'),
    importPool: not('ordinal', 'importPool', 'its options are identity, device'),
    importPoolPointer: not('size', 'importPoolPointer', 'its options are offset, bytes'),
    openIpcMemHandle: not('length', 'openIpcMemHandle', 'its options are device, offset, bytes'),
    openIpcEventHandle: not('bogus', 'openIpcEventHandle', 'its options are device'),
    send: not('timeout', 'MemoryExport.send', 'its options are timeoutMs, signal'),
    listen: not('backLog', 'FdChannelServer.listen', 'its options are backlog'),
    accept: not('timeout', 'FdChannelServer.accept', 'its options are timeoutMs, signal, peerUid'),
    connect: not('peer', 'FdChannel.connect', 'its options are timeoutMs, signal, peerUid'),
    channelSend: not('timeout', 'FdChannel.send', 'its options are signal, timeoutMs'),
    channelReceive: not('timeout', 'FdChannel.receive', 'its options are signal, timeoutMs'),
    reserve: not('align', 'AddressReservation.reserve', 'its options are device, alignment, address'),
    map: not('offst', 'Mapping.map', 'its options are offset, allocationOffset, bytes, access'),
    mappingAlloc: not('handleType', 'Mapping.alloc', 'its options are location, handleTypes, compression, gpuDirectRdma, hardwareDecompress, granularity, access'),
    physicalCreate: not('access', 'PhysicalAllocation.create', 'its options are location, handleTypes, compression, gpuDirectRdma, hardwareDecompress, granularity'),
    physicalImport: not('size', 'PhysicalAllocation.import', 'its options are bytes'),
    granularity: not('granularity', 'allocationGranularity', 'its options are location, handleTypes, compression, gpuDirectRdma, hardwareDecompress'),
    growable: not('initialSize', 'GrowableBuffer.create', 'its options are maxSize, size, device, handleTypes, access'),
    dmaBuf: not('pci', 'exportDmaBuf', 'its options are offset, bytes, pcie'),
    valid: Array(7).fill('no error'),
  });
});
