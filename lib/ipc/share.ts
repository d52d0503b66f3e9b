// Sharing GPU memory between processes in one call each way. shareMemory picks
// the path from the pointer's attributes: cuMemAlloc memory goes through legacy
// IPC, stream-ordered memory from a shareable pool through pool export, virtual
// memory (Mapping, GrowableBuffer) through its allocations' POSIX descriptors
// (or fabric handles); anything else is refused with what to do instead.
// openSharedMemory validates what arrives as untrusted input, receives the
// descriptors a path needs from an FdChannel, and in the exporting process
// itself gives an alias of the exported memory (the driver refuses to open its
// own exports).
import { Device, DeviceLike, ordinalOf } from '../device';
import { DeviceBuffer } from '../memory/device-buffer';
import { HostBuffer } from '../memory/host-buffer';
import { pointerAttributes } from '../memory/info';
import type { MemoryHandle } from '../memory/bytes';
import { native, NativeImportedMemory, Slot } from '../native';
import { checkEnum, checkObject, checkOptions, checkSize, checkTimeout, noOptions } from '../validate';
import { GrowableBuffer } from '../vmm/growable-buffer';
import { Mapping } from '../vmm/mapping';
import {
  descriptorFdCount,
  descriptorVersion,
  exportedHere,
  memoryDescriptorFormat,
  newExportId,
  SharedMemoryDescriptor,
  thisProcess,
  validateMemoryDescriptor,
} from './descriptor';
import { InvalidDescriptorError, SharingUnsupportedError } from './errors';
import type { PeerCredentials } from '../errors';
import { FdChannel, FdChannelWaitOptions, OwnedFd, ReceivedFd } from './fd-channel';
import { exportLegacy, openLegacy } from './legacy-memory';
import { exportablePoolRemedy, exportPoolMemory, openPoolMemory, ShareableHandleType } from './pool-sharing';
import { MemoryExport, SharedMemory } from './shared-memory';
import { exportVmmMemory, openVmmMemory } from './vmm-sharing';

/**
 * Options of {@link shareMemory}. viewOffset and viewBytes shape what the
 * importer's SharedMemory shows; they are not a boundary. A handle names whole
 * allocations, so an importer that rewrites the descriptor reaches every byte
 * of the allocations under the view: the cuMemAlloc allocation (legacy), the
 * pool allocation (pool), or each physical allocation the view touches (vmm;
 * the others do not travel). {@link MemoryExport.reachableBytes} says how many.
 * To share only part of a buffer, make that part its own allocation.
 */
export interface ShareOptions {
  /** Where the importer's view starts in the memory (default 0). */
  viewOffset?: number | bigint;
  /** How many bytes the importer's view shows (default: the rest of the memory). */
  viewBytes?: number | bigint;
  /**
   * For pool and virtual memory: 'posixFileDescriptor' (default; processes of
   * one host, the descriptors travel over an FdChannel) or 'fabric' (needs
   * fabric support and an IMEX channel; no descriptors to pass).
   */
  handleType?: ShareableHandleType;
}

/** Options of {@link openSharedMemory}. */
export interface OpenSharedOptions extends FdChannelWaitOptions {
  /** Where the file descriptors the descriptor needs arrive (sent with MemoryExport.send). */
  channel?: FdChannel;
  /** The file descriptors themselves, if they arrived already (they stay the caller's to close). */
  fds?: readonly OwnedFd[];
  /** The device to use the memory from; default the exporter's device (found by UUID). */
  device?: DeviceLike;
  /**
   * A descriptor whose file descriptors came from a peer (over
   * options.channel, or as options.fds received from one), or that
   * receiveSharedMemory received, must name that peer as its exporter
   * (exporter.pid is the peer's pid), so a process cannot pass off another's
   * export as its own (default true). false accepts descriptors a peer relays
   * from elsewhere, and peers in another PID namespace, whose pids read
   * differently here.
   */
  exporterIsPeer?: boolean;
}

// Exports of this process, by id, for opening them here as aliases.
const exportedMemory = new Map<string, { source: WeakRef<MemoryHandle>; offset: number }>();
const forgetExport = new FinalizationRegistry<string>((id) => exportedMemory.delete(id));

const handleTypes = { posixFileDescriptor: 1, fabric: 8 };

// shareMemory's range is the importer's view, named so that it does not read as a boundary.
const viewMisplaced = Object.fromEntries((['offset', 'bytes'] as const).map((key) => [key,
  `the range is the importer's view, not a boundary (the importer can reach whole allocations); pass options.view${key === 'offset' ? 'Offset' : 'Bytes'}`]));

function notShareable(memory: MemoryHandle): SharingUnsupportedError | undefined {
  if (memory instanceof HostBuffer) {
    return new SharingUnsupportedError('host-memory', 'host memory cannot be shared through CUDA IPC',
      'Share device memory instead, and copy between it and host memory in each process');
  }
  if (memory instanceof SharedMemory) {
    return new SharingUnsupportedError('imported-memory', 'memory opened from another process cannot be shared again from here',
      'Have the exporting process share it with the others itself');
  }
  return undefined;
}

/**
 * Makes device memory shareable with other processes, the importer's view
 * being [viewOffset, viewOffset + viewBytes) of it (the importer can reach
 * more: see ShareOptions), by the path its pointer attributes call for:
 * - cuMemAlloc memory (DeviceBuffer.alloc, allocPitched): legacy IPC, no file descriptors;
 * - stream-ordered memory from a pool created with handleTypes: ['posixFileDescriptor']: pool export;
 * - virtual memory (Mapping, GrowableBuffer) created with handleTypes: virtual memory export.
 * Managed memory, host memory, memory from a pool that cannot be exported and
 * memory imported from elsewhere are refused with a SharingUnsupportedError
 * that says which allocation to use instead.
 */
export function shareMemory(memory: MemoryHandle, options: ShareOptions = noOptions): MemoryExport {
  checkObject(options, 'options');
  checkOptions(options, 'options', 'shareMemory', ['viewOffset', 'viewBytes', 'handleType'], viewMisplaced);
  const refused = notShareable(memory);
  if (refused) throw refused;
  const isVirtual = memory instanceof Mapping || memory instanceof GrowableBuffer;
  if (!isVirtual && !(memory instanceof DeviceBuffer)) {
    throw new TypeError('memory must be a DeviceBuffer, Mapping or GrowableBuffer');
  }
  const offset = checkSize(options.viewOffset ?? 0, 'options.viewOffset');
  const bytes = options.viewBytes === undefined ? memory.size - offset : checkSize(options.viewBytes, 'options.viewBytes');
  if (bytes < 1 || offset + bytes > memory.size) {
    throw new RangeError(`the view [${offset}, ${offset}+${bytes}) must hold at least 1 byte and lie within the memory's ${memory.size} bytes`);
  }
  const handleType = options.handleType ?? 'posixFileDescriptor';
  if (typeof handleType !== 'string') throw new TypeError("options.handleType must be 'posixFileDescriptor' or 'fabric'");
  checkEnum(handleType, handleTypes, 'options.handleType');
  const attributes = pointerAttributes(memory, ['isManaged', 'isLegacyCudaIpcCapable', 'mempoolHandle'], offset);
  const device = memory.device;

  let path: { fields: Record<string, unknown>; fds: OwnedFd[]; reachableBytes: number };
  if (attributes.isManaged) {
    throw new SharingUnsupportedError('managed-memory', 'managed memory cannot be shared between processes',
      'Copy it into memory from DeviceBuffer.alloc (legacy IPC) or Mapping.alloc(bytes, { handleTypes: [\'posixFileDescriptor\'] }) and share that');
  } else if (isVirtual) {
    path = exportVmmMemory(memory, offset, bytes, handleType);
  } else if (attributes.mempoolHandle !== 0n) {
    path = exportPoolMemory(memory as DeviceBuffer, attributes.mempoolHandle, offset, handleType);
  } else if (attributes.isLegacyCudaIpcCapable) {
    const { handle, offset: allocationOffset, allocationSize } = exportLegacy(memory.slot, offset);
    path = { fields: { kind: 'legacy', handle, offset: allocationOffset }, fds: [], reachableBytes: allocationSize };
  } else {
    throw new SharingUnsupportedError('not-ipc-capable', 'the driver reports this memory as not shareable through legacy IPC',
      `Allocate with DeviceBuffer.alloc, or as virtual memory with Mapping.alloc(bytes, { handleTypes: ['posixFileDescriptor'] }); for pools: ${exportablePoolRemedy}`);
  }
  const id = newExportId();
  let descriptor: SharedMemoryDescriptor;
  try {
    descriptor = validateMemoryDescriptor({
      format: memoryDescriptorFormat,
      version: descriptorVersion,
      id,
      exporter: thisProcess(),
      device: { uuid: device.uuid, ordinal: device.ordinal },
      size: bytes,
      ...path.fields,
    });
  } catch (error) {
    for (const fd of path.fds) fd.dispose();
    throw error;
  }
  exportedMemory.set(id, { source: new WeakRef(memory), offset });
  forgetExport.register(memory, id);
  return new MemoryExport(descriptor, path.fds, memory, path.reachableBytes);
}

function exporterDevice(descriptor: SharedMemoryDescriptor): Device | undefined {
  try {
    return Device.byUuid(descriptor.device.uuid);
  } catch {
    return undefined;
  }
}

// The process a descriptor and its file descriptors came from: the channel's
// peer, the peer that sent options.fds (ReceivedFd), 'here' for descriptors
// this process exported itself (OwnedFd), undefined when nothing says.
type Source = PeerCredentials | 'here' | undefined;

function sourceOf(descriptor: SharedMemoryDescriptor, options: OpenSharedOptions): Source {
  if (options.fds === undefined) return options.channel !== undefined && descriptorFdCount(descriptor) > 0 ? options.channel.peer : undefined;
  if (options.fds.length === 0) return undefined;
  const peers = new Set(options.fds.map((fd) => (fd instanceof ReceivedFd ? `${fd.peer.pid}/${fd.peer.uid}` : 'here')));
  if (peers.size > 1) throw new TypeError('options.fds must all come from one process (one peer, or exports of this process)');
  const first = options.fds[0];
  return first instanceof ReceivedFd ? first.peer : 'here';
}

// The name an imported pool is registered under, so that each exporter's pool is
// imported once: the importer's own record of who sent it (the peer as the
// kernel recorded it) plus what that peer says of it. A peer can name only
// pools of its own: claiming another exporter's pool names a different one.
// Fabric handles name their pool themselves.
function poolIdentity(descriptor: SharedMemoryDescriptor & { kind: 'pool' }, source: Source): string {
  if (descriptor.poolHandle !== undefined) return `fabric:${descriptor.poolHandle}`;
  const from = source === undefined || source === 'here' ? 'here' : `peer ${source.pid}/${source.uid}`;
  return `${from}:${descriptor.exporter.token}:${descriptor.pool}`;
}

function checkExporter(descriptor: SharedMemoryDescriptor, source: Source, options: { exporterIsPeer?: boolean }): void {
  if (source === undefined || source === 'here' || options.exporterIsPeer === false) return;
  if (descriptor.exporter.pid !== source.pid) {
    throw new InvalidDescriptorError('exporter.pid', `is ${descriptor.exporter.pid}, but the descriptor came from process ${source.pid}: ` +
      'it is opened only from the process that exported it (exporterIsPeer: false accepts one relayed from elsewhere)');
  }
}

// The descriptors a path needs: given, or received from the channel in a message
// that must carry the same export.
async function fdsFor(descriptor: SharedMemoryDescriptor, options: OpenSharedOptions): Promise<{ fds: readonly OwnedFd[]; received: OwnedFd[] }> {
  const count = descriptorFdCount(descriptor);
  if (count === 0) return { fds: [], received: [] };
  if (options.fds !== undefined) {
    if (!Array.isArray(options.fds) || options.fds.length !== count || !options.fds.every((fd) => fd instanceof OwnedFd)) {
      throw new TypeError(`options.fds must hold the ${count} file descriptor${count === 1 ? '' : 's'} sent with the descriptor`);
    }
    return { fds: options.fds, received: [] };
  }
  if (!(options.channel instanceof FdChannel)) {
    throw new TypeError(`this descriptor (${descriptor.kind}, POSIX file descriptors) needs options.channel, where MemoryExport.send sends its descriptors, or options.fds`);
  }
  const message = await options.channel.receive({ timeoutMs: options.timeoutMs, signal: options.signal });
  let ok = false;
  try {
    const sent = validateMemoryDescriptor(message.payload);
    // The file descriptors go with the descriptor they came with: one given by
    // other means must be that one, field for field.
    if (sent.id !== descriptor.id) throw new InvalidDescriptorError('id', `of the message received (${sent.id}) is not the descriptor's (${descriptor.id}): messages crossed`);
    if (JSON.stringify(sent) !== JSON.stringify(descriptor)) {
      throw new InvalidDescriptorError('', `differs from the one received with its file descriptors (export ${sent.id})`);
    }
    if (message.fds.length !== count) throw new InvalidDescriptorError('', `arrived with ${message.fds.length} file descriptors instead of ${count}`);
    ok = true;
    return { fds: message.fds, received: [...message.fds] };
  } finally {
    if (!ok) message.dispose();
  }
}

/**
 * Opens memory another process shared (the descriptor from MemoryExport, sent
 * any way): validates it as untrusted input (InvalidDescriptorError), takes the
 * file descriptors it needs from options.fds or options.channel, and maps the
 * memory into this process. In the process that exported it, the result is an
 * alias of the exported memory. Opening the same legacy or pool export twice
 * shares one opening.
 */
export async function openSharedMemory(descriptor: unknown, options: OpenSharedOptions = noOptions): Promise<SharedMemory> {
  checkObject(options, 'options');
  checkOptions(options, 'options', 'openSharedMemory', ['channel', 'fds', 'device', 'exporterIsPeer', 'timeoutMs', 'signal']);
  const checked = validateMemoryDescriptor(descriptor);
  // Options are checked before the path is chosen: an alias in the exporting process uses none of them.
  const chosen = options.device === undefined ? undefined : Device.get(ordinalOf(options.device, 'options.device'));
  checkTimeout(options.timeoutMs, 'options.timeoutMs');
  if (options.channel !== undefined && !(options.channel instanceof FdChannel)) throw new TypeError('options.channel must be an FdChannel');
  if (options.fds !== undefined && (!Array.isArray(options.fds) || !options.fds.every((fd) => fd instanceof OwnedFd))) {
    throw new TypeError('options.fds must be an array of OwnedFd');
  }
  if (options.exporterIsPeer !== undefined && typeof options.exporterIsPeer !== 'boolean') throw new TypeError('options.exporterIsPeer must be a boolean');
  const source = sourceOf(checked, options);
  checkExporter(checked, source, options);
  if (exportedHere(checked.exporter)) return openAlias(checked);
  const owner = exporterDevice(checked);
  let device: Device;
  if (chosen !== undefined) {
    device = chosen;
  } else if (owner !== undefined) {
    device = owner;
  } else {
    throw new SharingUnsupportedError('device-not-visible', `the exporter's device ${checked.device.uuid} is not visible to this process`,
      'Make it visible (CUDA_VISIBLE_DEVICES), or pass options.device to use the memory from a peer device');
  }
  const { fds, received } = await fdsFor(checked, options);
  try {
    let opened: Slot<NativeImportedMemory>;
    switch (checked.kind) {
      case 'legacy':
        opened = openLegacy(checked, device.ordinal);
        break;
      case 'pool':
        opened = openPoolMemory(checked, device, fds, poolIdentity(checked, source));
        break;
      case 'vmm':
        opened = openVmmMemory(checked, device, fds);
        break;
    }
    return new SharedMemory(opened, checked);
  } finally {
    for (const fd of received) fd.dispose();
  }
}

/**
 * Receives the next message on channel (sent with MemoryExport.send) and opens
 * the memory it describes, closing the file descriptors that came with it.
 */
export async function receiveSharedMemory(
  channel: FdChannel,
  options: FdChannelWaitOptions & Pick<OpenSharedOptions, 'device' | 'exporterIsPeer'> = noOptions,
): Promise<SharedMemory> {
  if (!(channel instanceof FdChannel)) throw new TypeError('channel must be an FdChannel');
  checkObject(options, 'options');
  checkOptions(options, 'options', 'receiveSharedMemory', ['device', 'exporterIsPeer', 'timeoutMs', 'signal']);
  const message = await channel.receive({ timeoutMs: options.timeoutMs, signal: options.signal });
  try {
    // The peer sent the descriptor itself, whatever its path (legacy descriptors come without file descriptors).
    const checked = validateMemoryDescriptor(message.payload);
    checkExporter(checked, message.peer, options);
    return await openSharedMemory(checked, { fds: message.fds, device: options.device, exporterIsPeer: options.exporterIsPeer });
  } finally {
    message.dispose();
  }
}

function openAlias(descriptor: SharedMemoryDescriptor): SharedMemory {
  const entry = exportedMemory.get(descriptor.id);
  const source = entry?.source.deref();
  if (!entry || !source || (source as { disposed?: boolean }).disposed) {
    throw new SharingUnsupportedError('same-process', 'this descriptor was exported by this process, and the memory it names is gone',
      'Open descriptors in other processes; in the exporting process use the exported buffer itself');
  }
  return new SharedMemory(native.memoryView(source.slot, entry.offset, descriptor.size, 'alias'), descriptor);
}
