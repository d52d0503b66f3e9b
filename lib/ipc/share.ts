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
import { checkEnum, checkObject, checkSize, checkTimeout, noOptions } from '../validate';
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
import { FdChannel, FdChannelWaitOptions, OwnedFd } from './fd-channel';
import { exportLegacy, openLegacy } from './legacy-memory';
import { exportablePoolRemedy, exportPoolMemory, openPoolMemory, ShareableHandleType } from './pool-sharing';
import { MemoryExport, SharedMemory } from './shared-memory';
import { exportVmmMemory, openVmmMemory } from './vmm-sharing';

/** Options of {@link shareMemory}. */
export interface ShareOptions {
  /** Where the shared bytes start in the buffer (default 0). */
  offset?: number;
  /** How many bytes to share (default: the rest of the buffer). */
  bytes?: number;
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
}

// Exports of this process, by id, for opening them here as aliases.
const exportedMemory = new Map<string, { source: WeakRef<MemoryHandle>; offset: number }>();
const forgetExport = new FinalizationRegistry<string>((id) => exportedMemory.delete(id));

const handleTypes = { posixFileDescriptor: 1, fabric: 8 };

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
 * Makes [offset, offset + bytes) of device memory shareable with other
 * processes, by the path its pointer attributes call for:
 * - cuMemAlloc memory (DeviceBuffer.alloc, allocPitched): legacy IPC, no file descriptors;
 * - stream-ordered memory from a pool created with handleTypes: ['posixFileDescriptor']: pool export;
 * - virtual memory (Mapping, GrowableBuffer) created with handleTypes: virtual memory export.
 * Managed memory, host memory, memory from a pool that cannot be exported and
 * memory imported from elsewhere are refused with a SharingUnsupportedError
 * that says which allocation to use instead.
 */
export function shareMemory(memory: MemoryHandle, options: ShareOptions = noOptions): MemoryExport {
  checkObject(options, 'options');
  const refused = notShareable(memory);
  if (refused) throw refused;
  const isVirtual = memory instanceof Mapping || memory instanceof GrowableBuffer;
  if (!isVirtual && !(memory instanceof DeviceBuffer)) {
    throw new TypeError('memory must be a DeviceBuffer, Mapping or GrowableBuffer');
  }
  const offset = checkSize(options.offset ?? 0, 'options.offset');
  const bytes = options.bytes === undefined ? memory.size - offset : checkSize(options.bytes, 'options.bytes');
  if (bytes < 1 || offset + bytes > memory.size) {
    throw new RangeError(`the shared range [${offset}, ${offset}+${bytes}) must hold at least 1 byte and lie within the memory's ${memory.size} bytes`);
  }
  const handleType = options.handleType ?? 'posixFileDescriptor';
  if (typeof handleType !== 'string') throw new TypeError("options.handleType must be 'posixFileDescriptor' or 'fabric'");
  checkEnum(handleType, handleTypes, 'options.handleType');
  const attributes = pointerAttributes(memory, ['isManaged', 'isLegacyCudaIpcCapable', 'mempoolHandle'], offset);
  const device = memory.device;

  let path: { fields: Record<string, unknown>; fds: OwnedFd[] };
  if (attributes.isManaged) {
    throw new SharingUnsupportedError('managed-memory', 'managed memory cannot be shared between processes',
      'Copy it into memory from DeviceBuffer.alloc (legacy IPC) or Mapping.alloc(bytes, { handleTypes: [\'posixFileDescriptor\'] }) and share that');
  } else if (isVirtual) {
    path = exportVmmMemory(memory, offset, bytes, handleType);
  } else if (attributes.mempoolHandle !== 0n) {
    path = exportPoolMemory(memory as DeviceBuffer, attributes.mempoolHandle, offset, handleType);
  } else if (attributes.isLegacyCudaIpcCapable) {
    path = { fields: { kind: 'legacy', ...exportLegacy(memory.slot, offset) }, fds: [] };
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
  return new MemoryExport(descriptor, path.fds, memory);
}

function exporterDevice(descriptor: SharedMemoryDescriptor): Device | undefined {
  try {
    return Device.byUuid(descriptor.device.uuid);
  } catch {
    return undefined;
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
  const message = await options.channel.receive({ timeoutMs: options.timeoutMs });
  let ok = false;
  try {
    const sent = validateMemoryDescriptor(message.payload);
    if (sent.id !== descriptor.id) throw new InvalidDescriptorError('id', `of the message received (${sent.id}) is not the descriptor's (${descriptor.id}): messages crossed`);
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
  const checked = validateMemoryDescriptor(descriptor);
  // Options are checked before the path is chosen: an alias in the exporting process uses none of them.
  const chosen = options.device === undefined ? undefined : Device.get(ordinalOf(options.device, 'options.device'));
  checkTimeout(options.timeoutMs, 'options.timeoutMs');
  if (options.channel !== undefined && !(options.channel instanceof FdChannel)) throw new TypeError('options.channel must be an FdChannel');
  if (options.fds !== undefined && (!Array.isArray(options.fds) || !options.fds.every((fd) => fd instanceof OwnedFd))) {
    throw new TypeError('options.fds must be an array of OwnedFd');
  }
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
        opened = openPoolMemory(checked, device, fds);
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
export async function receiveSharedMemory(channel: FdChannel, options: FdChannelWaitOptions & { device?: DeviceLike } = noOptions): Promise<SharedMemory> {
  if (!(channel instanceof FdChannel)) throw new TypeError('channel must be an FdChannel');
  checkObject(options, 'options');
  const message = await channel.receive({ timeoutMs: options.timeoutMs });
  try {
    return await openSharedMemory(message.payload, { fds: message.fds, device: options.device });
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
