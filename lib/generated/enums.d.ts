/** The driver's CUresult values by name. */
export declare const CudaResult: {
    readonly CUDA_SUCCESS: 0;
    readonly CUDA_ERROR_INVALID_VALUE: 1;
    readonly CUDA_ERROR_OUT_OF_MEMORY: 2;
    readonly CUDA_ERROR_NOT_INITIALIZED: 3;
    readonly CUDA_ERROR_DEINITIALIZED: 4;
    readonly CUDA_ERROR_PROFILER_DISABLED: 5;
    readonly CUDA_ERROR_PROFILER_NOT_INITIALIZED: 6;
    readonly CUDA_ERROR_PROFILER_ALREADY_STARTED: 7;
    readonly CUDA_ERROR_PROFILER_ALREADY_STOPPED: 8;
    readonly CUDA_ERROR_STUB_LIBRARY: 34;
    readonly CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER: 36;
    readonly CUDA_ERROR_DEVICE_UNAVAILABLE: 46;
    readonly CUDA_ERROR_NO_DEVICE: 100;
    readonly CUDA_ERROR_INVALID_DEVICE: 101;
    readonly CUDA_ERROR_DEVICE_NOT_LICENSED: 102;
    readonly CUDA_ERROR_INVALID_IMAGE: 200;
    readonly CUDA_ERROR_INVALID_CONTEXT: 201;
    readonly CUDA_ERROR_CONTEXT_ALREADY_CURRENT: 202;
    readonly CUDA_ERROR_MAP_FAILED: 205;
    readonly CUDA_ERROR_UNMAP_FAILED: 206;
    readonly CUDA_ERROR_ARRAY_IS_MAPPED: 207;
    readonly CUDA_ERROR_ALREADY_MAPPED: 208;
    readonly CUDA_ERROR_NO_BINARY_FOR_GPU: 209;
    readonly CUDA_ERROR_ALREADY_ACQUIRED: 210;
    readonly CUDA_ERROR_NOT_MAPPED: 211;
    readonly CUDA_ERROR_NOT_MAPPED_AS_ARRAY: 212;
    readonly CUDA_ERROR_NOT_MAPPED_AS_POINTER: 213;
    readonly CUDA_ERROR_ECC_UNCORRECTABLE: 214;
    readonly CUDA_ERROR_UNSUPPORTED_LIMIT: 215;
    readonly CUDA_ERROR_CONTEXT_ALREADY_IN_USE: 216;
    readonly CUDA_ERROR_PEER_ACCESS_UNSUPPORTED: 217;
    readonly CUDA_ERROR_INVALID_PTX: 218;
    readonly CUDA_ERROR_INVALID_GRAPHICS_CONTEXT: 219;
    readonly CUDA_ERROR_NVLINK_UNCORRECTABLE: 220;
    readonly CUDA_ERROR_JIT_COMPILER_NOT_FOUND: 221;
    readonly CUDA_ERROR_UNSUPPORTED_PTX_VERSION: 222;
    readonly CUDA_ERROR_JIT_COMPILATION_DISABLED: 223;
    readonly CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY: 224;
    readonly CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC: 225;
    readonly CUDA: 226;
    readonly CUDA_ERROR_CONTAINED: 226;
    readonly CUDA_ERROR_INVALID_SOURCE: 300;
    readonly CUDA_ERROR_FILE_NOT_FOUND: 301;
    readonly CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND: 302;
    readonly CUDA_ERROR_SHARED_OBJECT_INIT_FAILED: 303;
    readonly CUDA_ERROR_OPERATING_SYSTEM: 304;
    readonly CUDA_ERROR_INVALID_HANDLE: 400;
    readonly CUDA_ERROR_ILLEGAL_STATE: 401;
    readonly CUDA_ERROR_LOSSY_QUERY: 402;
    readonly CUDA_ERROR_NOT_FOUND: 500;
    readonly CUDA_ERROR_NOT_READY: 600;
    readonly CUDA_ERROR_ILLEGAL_ADDRESS: 700;
    readonly CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: 701;
    readonly CUDA_ERROR_LAUNCH_TIMEOUT: 702;
    readonly CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING: 703;
    readonly CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED: 704;
    readonly CUDA_ERROR_PEER_ACCESS_NOT_ENABLED: 705;
    readonly CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE: 708;
    readonly CUDA_ERROR_CONTEXT_IS_DESTROYED: 709;
    readonly CUDA_ERROR_ASSERT: 710;
    readonly CUDA_ERROR_TOO_MANY_PEERS: 711;
    readonly CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED: 712;
    readonly CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED: 713;
    readonly CUDA_ERROR_HARDWARE_STACK_ERROR: 714;
    readonly CUDA_ERROR_ILLEGAL_INSTRUCTION: 715;
    readonly CUDA_ERROR_MISALIGNED_ADDRESS: 716;
    readonly CUDA_ERROR_INVALID_ADDRESS_SPACE: 717;
    readonly CUDA_ERROR_INVALID_PC: 718;
    readonly CUDA_ERROR_LAUNCH_FAILED: 719;
    readonly CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE: 720;
    readonly CUDA_ERROR_TENSOR_MEMORY_LEAK: 721;
    readonly CUDA_ERROR_NOT_PERMITTED: 800;
    readonly CUDA_ERROR_NOT_SUPPORTED: 801;
    readonly CUDA_ERROR_SYSTEM_NOT_READY: 802;
    readonly CUDA_ERROR_SYSTEM_DRIVER_MISMATCH: 803;
    readonly CUDA_VISIBLE_DEVICES: 804;
    readonly CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE: 804;
    readonly CUDA_ERROR_MPS_CONNECTION_FAILED: 805;
    readonly CUDA_ERROR_MPS_RPC_FAILURE: 806;
    readonly CUDA_ERROR_MPS_SERVER_NOT_READY: 807;
    readonly CUDA_ERROR_MPS_MAX_CLIENTS_REACHED: 808;
    readonly CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED: 809;
    readonly CUDA_ERROR_MPS_CLIENT_TERMINATED: 810;
    readonly CUDA_ERROR_CDP_NOT_SUPPORTED: 811;
    readonly CUDA_ERROR_CDP_VERSION_MISMATCH: 812;
    readonly CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED: 900;
    readonly CUDA_ERROR_STREAM_CAPTURE_INVALIDATED: 901;
    readonly CUDA_ERROR_STREAM_CAPTURE_MERGE: 902;
    readonly CUDA_ERROR_STREAM_CAPTURE_UNMATCHED: 903;
    readonly CUDA_ERROR_STREAM_CAPTURE_UNJOINED: 904;
    readonly CUDA_ERROR_STREAM_CAPTURE_ISOLATION: 905;
    readonly CUDA_ERROR_STREAM_CAPTURE_IMPLICIT: 906;
    readonly CUDA_ERROR_CAPTURED_EVENT: 907;
    readonly CU_STREAM_CAPTURE_MODE_RELAXED: 908;
    readonly CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD: 908;
    readonly CUDA_ERROR_TIMEOUT: 909;
    readonly CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE: 910;
    readonly CUDA_ERROR_EXTERNAL_DEVICE: 911;
    readonly CUDA_ERROR_INVALID_CLUSTER_SIZE: 912;
    readonly CUDA_ERROR_FUNCTION_NOT_LOADED: 913;
    readonly CUDA_ERROR_INVALID_RESOURCE_TYPE: 914;
    readonly CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION: 915;
    readonly CUDA_ERROR_KEY_ROTATION: 916;
    readonly CUDA_ERROR_UNKNOWN: 999;
};
/** A name of {@link CudaResult}. */
export type CudaResultName = keyof typeof CudaResult;
/** The driver's CUdevice_attribute values by name. */
export declare const DeviceAttribute: {
    /** Maximum number of threads per block */
    readonly maxThreadsPerBlock: 1;
    /** Maximum block dimension X */
    readonly maxBlockDimX: 2;
    /** Maximum block dimension Y */
    readonly maxBlockDimY: 3;
    /** Maximum block dimension Z */
    readonly maxBlockDimZ: 4;
    /** Maximum grid dimension X */
    readonly maxGridDimX: 5;
    /** Maximum grid dimension Y */
    readonly maxGridDimY: 6;
    /** Maximum grid dimension Z */
    readonly maxGridDimZ: 7;
    /** Maximum shared memory available per block in bytes */
    readonly maxSharedMemoryPerBlock: 8;
    /** Memory available on device for __constant__ variables in a CUDA C kernel in bytes */
    readonly totalConstantMemory: 9;
    /** Warp size in threads */
    readonly warpSize: 10;
    /** Maximum pitch in bytes allowed by memory copies */
    readonly maxPitch: 11;
    /** Maximum number of 32-bit registers available per block */
    readonly maxRegistersPerBlock: 12;
    /** Typical clock frequency in kilohertz */
    readonly clockRate: 13;
    /** Alignment requirement for textures */
    readonly textureAlignment: 14;
    /** Number of multiprocessors on device */
    readonly multiprocessorCount: 16;
    /** Specifies whether there is a run time limit on kernels */
    readonly kernelExecTimeout: 17;
    /** Device is integrated with host memory */
    readonly integrated: 18;
    /** Device can map host memory into CUDA address space */
    readonly canMapHostMemory: 19;
    /** Compute mode (See CUcomputemode for details) */
    readonly computeMode: 20;
    /** Maximum 1D texture width */
    readonly maximumTexture1dWidth: 21;
    /** Maximum 2D texture width */
    readonly maximumTexture2dWidth: 22;
    /** Maximum 2D texture height */
    readonly maximumTexture2dHeight: 23;
    /** Maximum 3D texture width */
    readonly maximumTexture3dWidth: 24;
    /** Maximum 3D texture height */
    readonly maximumTexture3dHeight: 25;
    /** Maximum 3D texture depth */
    readonly maximumTexture3dDepth: 26;
    /** Maximum 2D layered texture width */
    readonly maximumTexture2dLayeredWidth: 27;
    /** Maximum 2D layered texture height */
    readonly maximumTexture2dLayeredHeight: 28;
    /** Maximum layers in a 2D layered texture */
    readonly maximumTexture2dLayeredLayers: 29;
    /** Alignment requirement for surfaces */
    readonly surfaceAlignment: 30;
    /** Device can possibly execute multiple kernels concurrently */
    readonly concurrentKernels: 31;
    /** Device has ECC support enabled */
    readonly eccEnabled: 32;
    /** PCI bus ID of the device */
    readonly pciBusId: 33;
    /** PCI device ID of the device */
    readonly pciDeviceId: 34;
    /** Device is using TCC driver model */
    readonly tccDriver: 35;
    /** Peak memory clock frequency in kilohertz */
    readonly memoryClockRate: 36;
    /** Global memory bus width in bits */
    readonly globalMemoryBusWidth: 37;
    /** Size of L2 cache in bytes */
    readonly l2CacheSize: 38;
    /** Maximum resident threads per multiprocessor */
    readonly maxThreadsPerMultiprocessor: 39;
    /** Number of asynchronous engines */
    readonly asyncEngineCount: 40;
    /** Device shares a unified address space with the host */
    readonly unifiedAddressing: 41;
    /** Maximum 1D layered texture width */
    readonly maximumTexture1dLayeredWidth: 42;
    /** Maximum layers in a 1D layered texture */
    readonly maximumTexture1dLayeredLayers: 43;
    /** Maximum 2D texture width if CUDA_ARRAY3D_TEXTURE_GATHER is set */
    readonly maximumTexture2dGatherWidth: 45;
    /** Maximum 2D texture height if CUDA_ARRAY3D_TEXTURE_GATHER is set */
    readonly maximumTexture2dGatherHeight: 46;
    /** Alternate maximum 3D texture width */
    readonly maximumTexture3dWidthAlternate: 47;
    /** Alternate maximum 3D texture height */
    readonly maximumTexture3dHeightAlternate: 48;
    /** Alternate maximum 3D texture depth */
    readonly maximumTexture3dDepthAlternate: 49;
    /** PCI domain ID of the device */
    readonly pciDomainId: 50;
    /** Pitch alignment requirement for textures */
    readonly texturePitchAlignment: 51;
    /** Maximum cubemap texture width/height */
    readonly maximumTexturecubemapWidth: 52;
    /** Maximum cubemap layered texture width/height */
    readonly maximumTexturecubemapLayeredWidth: 53;
    /** Maximum layers in a cubemap layered texture */
    readonly maximumTexturecubemapLayeredLayers: 54;
    /** Maximum 1D surface width */
    readonly maximumSurface1dWidth: 55;
    /** Maximum 2D surface width */
    readonly maximumSurface2dWidth: 56;
    /** Maximum 2D surface height */
    readonly maximumSurface2dHeight: 57;
    /** Maximum 3D surface width */
    readonly maximumSurface3dWidth: 58;
    /** Maximum 3D surface height */
    readonly maximumSurface3dHeight: 59;
    /** Maximum 3D surface depth */
    readonly maximumSurface3dDepth: 60;
    /** Maximum 1D layered surface width */
    readonly maximumSurface1dLayeredWidth: 61;
    /** Maximum layers in a 1D layered surface */
    readonly maximumSurface1dLayeredLayers: 62;
    /** Maximum 2D layered surface width */
    readonly maximumSurface2dLayeredWidth: 63;
    /** Maximum 2D layered surface height */
    readonly maximumSurface2dLayeredHeight: 64;
    /** Maximum layers in a 2D layered surface */
    readonly maximumSurface2dLayeredLayers: 65;
    /** Maximum cubemap surface width */
    readonly maximumSurfacecubemapWidth: 66;
    /** Maximum cubemap layered surface width */
    readonly maximumSurfacecubemapLayeredWidth: 67;
    /** Maximum layers in a cubemap layered surface */
    readonly maximumSurfacecubemapLayeredLayers: 68;
    /** Maximum 2D linear texture width */
    readonly maximumTexture2dLinearWidth: 70;
    /** Maximum 2D linear texture height */
    readonly maximumTexture2dLinearHeight: 71;
    /** Maximum 2D linear texture pitch in bytes */
    readonly maximumTexture2dLinearPitch: 72;
    /** Maximum mipmapped 2D texture width */
    readonly maximumTexture2dMipmappedWidth: 73;
    /** Maximum mipmapped 2D texture height */
    readonly maximumTexture2dMipmappedHeight: 74;
    /** Major compute capability version number */
    readonly computeCapabilityMajor: 75;
    /** Minor compute capability version number */
    readonly computeCapabilityMinor: 76;
    /** Maximum mipmapped 1D texture width */
    readonly maximumTexture1dMipmappedWidth: 77;
    /** Device supports stream priorities */
    readonly streamPrioritiesSupported: 78;
    /** Device supports caching globals in L1 */
    readonly globalL1CacheSupported: 79;
    /** Device supports caching locals in L1 */
    readonly localL1CacheSupported: 80;
    /** Maximum shared memory available per multiprocessor in bytes */
    readonly maxSharedMemoryPerMultiprocessor: 81;
    /** Maximum number of 32-bit registers available per multiprocessor */
    readonly maxRegistersPerMultiprocessor: 82;
    /** Device can allocate managed memory on this system */
    readonly managedMemory: 83;
    /** Device is on a multi-GPU board */
    readonly multiGpuBoard: 84;
    /** Unique id for a group of devices on the same multi-GPU board */
    readonly multiGpuBoardGroupId: 85;
    /** Link between the device and the host supports all native atomic operations */
    readonly hostNativeAtomicSupported: 86;
    /** Ratio of single precision performance (in floating-point operations per second) to double precision performance */
    readonly singleToDoublePrecisionPerfRatio: 87;
    /** Device supports coherently accessing pageable memory without calling cudaHostRegister on it */
    readonly pageableMemoryAccess: 88;
    /** Device can coherently access managed memory concurrently with the CPU */
    readonly concurrentManagedAccess: 89;
    /** Device supports compute preemption. */
    readonly computePreemptionSupported: 90;
    /** Device can access host registered memory at the same virtual address as the CPU */
    readonly canUseHostPointerForRegisteredMem: 91;
    /** Device supports launching cooperative kernels via cuLaunchCooperativeKernel */
    readonly cooperativeLaunch: 95;
    /** Maximum optin shared memory per block */
    readonly maxSharedMemoryPerBlockOptin: 97;
    /** The CU_STREAM_WAIT_VALUE_FLUSH flag and the CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES MemOp are supported on the device. See  CUDA_MEMOP for additional details. */
    readonly canFlushRemoteWrites: 98;
    /** Device supports host memory registration via cudaHostRegister. */
    readonly hostRegisterSupported: 99;
    /** Device accesses pageable memory via the host's page tables. */
    readonly pageableMemoryAccessUsesHostPageTables: 100;
    /** The host can directly access managed memory on the device without migration. */
    readonly directManagedMemAccessFromHost: 101;
    /** Device supports virtual memory management APIs like cuMemAddressReserve, cuMemCreate, cuMemMap and related APIs */
    readonly virtualMemoryManagementSupported: 102;
    /** Device supports exporting memory to a posix file descriptor with cuMemExportToShareableHandle, if requested via cuMemCreate */
    readonly handleTypePosixFileDescriptorSupported: 103;
    /** Device supports exporting memory to a Win32 NT handle with cuMemExportToShareableHandle, if requested via cuMemCreate */
    readonly handleTypeWin32HandleSupported: 104;
    /** Device supports exporting memory to a Win32 KMT handle with cuMemExportToShareableHandle, if requested via cuMemCreate */
    readonly handleTypeWin32KmtHandleSupported: 105;
    /** Maximum number of blocks per multiprocessor */
    readonly maxBlocksPerMultiprocessor: 106;
    /** Device supports compression of memory */
    readonly genericCompressionSupported: 107;
    /** Maximum L2 persisting lines capacity setting in bytes. */
    readonly maxPersistingL2CacheSize: 108;
    /** Maximum value of CUaccessPolicyWindownum_bytes. */
    readonly maxAccessPolicyWindowSize: 109;
    /** Device supports specifying the GPUDirect RDMA flag with cuMemCreate */
    readonly gpuDirectRdmaWithCudaVmmSupported: 110;
    /** Shared memory reserved by CUDA driver per block in bytes */
    readonly reservedSharedMemoryPerBlock: 111;
    /** Device supports sparse CUDA arrays and sparse CUDA mipmapped arrays */
    readonly sparseCudaArraySupported: 112;
    /** Device supports using the cuMemHostRegister flag CU_MEMHOSTERGISTER_READ_ONLY to register memory that must be mapped as read-only to the GPU */
    readonly readOnlyHostRegisterSupported: 113;
    /** External timeline semaphore interop is supported on the device */
    readonly timelineSemaphoreInteropSupported: 114;
    /** Device supports using the cuMemAllocAsync and cuMemPool family of APIs */
    readonly memoryPoolsSupported: 115;
    /** Device supports GPUDirect RDMA APIs, like nvidia_p2p_get_pages (see https://docs.nvidia.com/cuda/gpudirect-rdma for more information) */
    readonly gpuDirectRdmaSupported: 116;
    /** The returned attribute shall be interpreted as a bitmask, where the individual bits are described by the CUflushGPUDirectRDMAWritesOptions enum */
    readonly gpuDirectRdmaFlushWritesOptions: 117;
    /** GPUDirect RDMA writes to the device do not need to be flushed for consumers within the scope indicated by the returned attribute. See CUGPUDirectRDMAWritesOrdering for the numerical values returned here. */
    readonly gpuDirectRdmaWritesOrdering: 118;
    /** Handle types supported with mempool based IPC */
    readonly mempoolSupportedHandleTypes: 119;
    /** Indicates device supports cluster launch */
    readonly clusterLaunch: 120;
    /** Device supports deferred mapping CUDA arrays and CUDA mipmapped arrays */
    readonly deferredMappingCudaArraySupported: 121;
    /** 64-bit operations are supported in cuStreamBatchMemOp and related MemOp APIs. */
    readonly canUse64BitStreamMemOps: 122;
    /** CU_STREAM_WAIT_VALUE_NOR is supported by MemOp APIs. */
    readonly canUseStreamWaitValueNor: 123;
    /** Device supports buffer sharing with dma_buf mechanism. */
    readonly dmaBufSupported: 124;
    /** Device supports IPC Events. */
    readonly ipcEventSupported: 125;
    /** Number of memory domains the device supports. */
    readonly memSyncDomainCount: 126;
    /** Device supports accessing memory using Tensor Map. */
    readonly tensorMapAccessSupported: 127;
    /** Device supports exporting memory to a fabric handle with cuMemExportToShareableHandle() or requested with cuMemCreate() */
    readonly handleTypeFabricSupported: 128;
    /** Device supports unified function pointers. */
    readonly unifiedFunctionPointers: 129;
    /** NUMA configuration of a device: value is of type CUdeviceNumaConfig enum */
    readonly numaConfig: 130;
    /** NUMA node ID of the GPU memory */
    readonly numaId: 131;
    /** Device supports switch multicast and reduction operations. */
    readonly multicastSupported: 132;
    /** Indicates if contexts created on this device will be shared via MPS */
    readonly mpsEnabled: 133;
    /** NUMA ID of the host node closest to the device. Returns -1 when system does not support NUMA. */
    readonly hostNumaId: 134;
    /** Device supports CIG with D3D12. */
    readonly d3d12CigSupported: 135;
    /** The returned valued shall be interpreted as a bitmask, where the individual bits are described by the CUmemDecompressAlgorithm enum. */
    readonly memDecompressAlgorithmMask: 136;
    /** The returned valued is the maximum length in bytes of a single decompress operation that is allowed. */
    readonly memDecompressMaximumLength: 137;
    /** Device supports CIG with Vulkan. */
    readonly vulkanCigSupported: 138;
    /** The combined 16-bit PCI device ID and 16-bit PCI vendor ID. */
    readonly gpuPciDeviceId: 139;
    /** The combined 16-bit PCI subsystem ID and 16-bit PCI subsystem vendor ID. */
    readonly gpuPciSubsystemId: 140;
    /** Device supports HOST_NUMA location with the virtual memory management APIs like cuMemCreate, cuMemMap and related APIs */
    readonly hostNumaVirtualMemoryManagementSupported: 141;
    /** Device supports HOST_NUMA location with the cuMemAllocAsync and cuMemPool family of APIs */
    readonly hostNumaMemoryPoolsSupported: 142;
    /** Device supports HOST_NUMA location IPC between nodes in a multi-node system. */
    readonly hostNumaMultinodeIpcSupported: 143;
    /** Device suports HOST location with the cuMemAllocAsync and cuMemPool family of APIs */
    readonly hostMemoryPoolsSupported: 144;
    /** Device supports HOST location with the virtual memory management APIs like cuMemCreate, cuMemMap and related APIs */
    readonly hostVirtualMemoryManagementSupported: 145;
    /** Device supports page-locked host memory buffer sharing with dma_buf mechanism. */
    readonly hostAllocDmaBufSupported: 146;
    /** Link between the device and the host supports only some native atomic operations */
    readonly onlyPartialHostNativeAtomicSupported: 147;
};
/** A name of {@link DeviceAttribute}. */
export type DeviceAttributeName = keyof typeof DeviceAttribute;
/** The driver's CUdevice_P2PAttribute values by name. */
export declare const P2PAttribute: {
    /** A relative value indicating the performance of the link between two devices */
    readonly performanceRank: 1;
    /** P2P Access is enable */
    readonly accessSupported: 2;
    /** All CUDA-valid atomic operation over the link are supported */
    readonly nativeAtomicSupported: 3;
    /** Accessing CUDA arrays over the link supported */
    readonly cudaArrayAccessSupported: 4;
    /** Only some CUDA-valid atomic operations over the link are supported. */
    readonly onlyPartialNativeAtomicSupported: 5;
};
/** A name of {@link P2PAttribute}. */
export type P2PAttributeName = keyof typeof P2PAttribute;
/** The driver's CUlimit values by name. */
export declare const ContextLimit: {
    /** GPU thread stack size */
    readonly stackSize: 0;
    /** GPU printf FIFO size */
    readonly printfFifoSize: 1;
    /** GPU malloc heap size */
    readonly mallocHeapSize: 2;
    /** GPU device runtime launch synchronize depth */
    readonly devRuntimeSyncDepth: 3;
    /** GPU device runtime pending launch count */
    readonly devRuntimePendingLaunchCount: 4;
    /** A value between 0 and 128 that indicates the maximum fetch granularity of L2 (in Bytes). This is a hint */
    readonly maxL2FetchGranularity: 5;
    /** A size in bytes for L2 persisting lines cache size */
    readonly persistingL2CacheSize: 6;
    /** A maximum size in bytes of shared memory available to CUDA kernels on a CIG context. Can only be queried, cannot be set */
    readonly shmemSize: 7;
    /** A non-zero value indicates this CUDA context is a CIG-enabled context. Can only be queried, cannot be set */
    readonly cigEnabled: 8;
    /** When set to zero, CUDA will fail to launch a kernel on a CIG context, instead of using the fallback path, if the kernel uses more shared memory than available */
    readonly cigShmemFallbackEnabled: 9;
};
/** A name of {@link ContextLimit}. */
export type ContextLimitName = keyof typeof ContextLimit;
/** The driver's CUctx_flags values by name. */
export declare const ContextFlag: {
    /** Automatic scheduling */
    readonly schedAuto: 0;
    /** Set spin as default scheduling */
    readonly schedSpin: 1;
    /** Set yield as default scheduling */
    readonly schedYield: 2;
    /** Set blocking synchronization as default scheduling */
    readonly schedBlockingSync: 4;
    /** Keep local memory allocation after launch */
    readonly lmemResizeToMax: 16;
    /** Trigger coredumps from exceptions in this context */
    readonly coredumpEnable: 32;
    /** Enable user pipe to trigger coredumps in this context */
    readonly userCoredumpEnable: 64;
    /** Ensure synchronous memory operations on this context will synchronize */
    readonly syncMemops: 128;
};
/** A name of {@link ContextFlag}. */
export type ContextFlagName = keyof typeof ContextFlag;
/** The driver's CUstream_flags values by name. */
export declare const StreamFlag: {
    /** Default stream flag */
    readonly default: 0;
    /** Stream does not synchronize with stream 0 (the NULL stream) */
    readonly nonBlocking: 1;
};
/** A name of {@link StreamFlag}. */
export type StreamFlagName = keyof typeof StreamFlag;
/** The driver's CUevent_flags values by name. */
export declare const EventFlag: {
    /** Default event flag */
    readonly default: 0;
    /** Event uses blocking synchronization */
    readonly blockingSync: 1;
    /** Event will not record timing data */
    readonly disableTiming: 2;
    /** Event is suitable for interprocess use. CU_EVENT_DISABLE_TIMING must be set */
    readonly interprocess: 4;
};
/** A name of {@link EventFlag}. */
export type EventFlagName = keyof typeof EventFlag;
/** The driver's CUevent_record_flags values by name. */
export declare const EventRecordFlag: {
    /** Default event record flag */
    readonly default: 0;
    /** When using stream capture, create an event record node instead of the default behavior.  This flag is invalid when used outside of capture. */
    readonly external: 1;
};
/** A name of {@link EventRecordFlag}. */
export type EventRecordFlagName = keyof typeof EventRecordFlag;
/** The driver's CUevent_wait_flags values by name. */
export declare const EventWaitFlag: {
    /** Default event wait flag */
    readonly default: 0;
    /** When using stream capture, create an event wait node instead of the default behavior.  This flag is invalid when used outside of capture. */
    readonly external: 1;
};
/** A name of {@link EventWaitFlag}. */
export type EventWaitFlagName = keyof typeof EventWaitFlag;
/** The driver's CUstreamWaitValue_flags values by name. */
export declare const StreamWaitValueFlag: {
    /** Wait until (int32_t)(*addr - value) >= 0 (or int64_t for 64 bit values). Note this is a cyclic comparison which ignores wraparound. (Default behavior.) */
    readonly geq: 0;
    /** Wait until *addr == value. */
    readonly eq: 1;
    /** Wait until (*addr & value) != 0. */
    readonly and: 2;
    /** Wait until ~(*addr | value) != 0. Support for this operation can be queried with cuDeviceGetAttribute() and CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR. */
    readonly nor: 3;
    /** Follow the wait operation with a flush of outstanding remote writes. This means that, if a remote write operation is guaranteed to have reached the device before the wait can be satisfied, that write is guaranteed to be visible to downstream device work. The device is permitted to reorder remote writes internally. For example, this flag would be required if two remote writes arrive in a defined order, the wait is satisfied by the second write, and downstream work needs to observe the first write. Support for this operation is restricted to selected platforms and can be queried with CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES. */
    readonly flush: 1073741824;
};
/** A name of {@link StreamWaitValueFlag}. */
export type StreamWaitValueFlagName = keyof typeof StreamWaitValueFlag;
/** The driver's CUstreamWriteValue_flags values by name. */
export declare const StreamWriteValueFlag: {
    /** Default behavior */
    readonly default: 0;
    /** Permits the write to be reordered with writes which were issued before it, as a performance optimization. Normally, cuStreamWriteValue32 will provide a memory fence before the write, which has similar semantics to __threadfence_system() but is scoped to the stream rather than a CUDA thread. This flag is not supported in the v2 API. */
    readonly noMemoryBarrier: 1;
};
/** A name of {@link StreamWriteValueFlag}. */
export type StreamWriteValueFlagName = keyof typeof StreamWriteValueFlag;
/** The driver's CUstreamBatchMemOpType values by name. */
export declare const StreamMemoryOperation: {
    /** Represents a cuStreamWaitValue32 operation */
    readonly waitValue32: 1;
    /** Represents a cuStreamWriteValue32 operation */
    readonly writeValue32: 2;
    /** Represents a cuStreamWaitValue64 operation */
    readonly waitValue64: 4;
    /** Represents a cuStreamWriteValue64 operation */
    readonly writeValue64: 5;
    /** Insert a memory barrier of the specified type */
    readonly barrier: 6;
    /** This has the same effect as CU_STREAM_WAIT_VALUE_FLUSH, but as a standalone operation. */
    readonly flushRemoteWrites: 3;
};
/** A name of {@link StreamMemoryOperation}. */
export type StreamMemoryOperationName = keyof typeof StreamMemoryOperation;
/** The driver's CUstreamMemoryBarrier_flags values by name. */
export declare const StreamMemoryBarrier: {
    /** System-wide memory barrier. */
    readonly sys: 0;
    /** Limit memory barrier scope to the GPU. */
    readonly gpu: 1;
};
/** A name of {@link StreamMemoryBarrier}. */
export type StreamMemoryBarrierName = keyof typeof StreamMemoryBarrier;
/** The driver's CUstreamCaptureMode values by name. */
export declare const CaptureMode: {
    readonly global: 0;
    readonly threadLocal: 1;
    readonly relaxed: 2;
};
/** A name of {@link CaptureMode}. */
export type CaptureModeName = keyof typeof CaptureMode;
/** The driver's CUstreamCaptureStatus values by name. */
export declare const CaptureStatus: {
    /** Stream is not capturing */
    readonly none: 0;
    /** Stream is actively capturing */
    readonly active: 1;
    /** Stream is part of a capture sequence that has been invalidated, but not terminated */
    readonly invalidated: 2;
};
/** A name of {@link CaptureStatus}. */
export type CaptureStatusName = keyof typeof CaptureStatus;
/** The driver's CUstreamUpdateCaptureDependencies_flags values by name. */
export declare const CaptureDependencyUpdate: {
    /** Add new nodes to the dependency set */
    readonly addCaptureDependencies: 0;
    /** Replace the dependency set with the new nodes */
    readonly setCaptureDependencies: 1;
};
/** A name of {@link CaptureDependencyUpdate}. */
export type CaptureDependencyUpdateName = keyof typeof CaptureDependencyUpdate;
/** The driver's CUlaunchAttributeID values by name. */
export declare const LaunchAttribute: {
    /** Ignored entry, for convenient composition */
    readonly ignore: 0;
    /** Valid for streams, graph nodes, launches. See CUlaunchAttributeValueaccessPolicyWindow. */
    readonly accessPolicyWindow: 1;
    /** Valid for graph nodes, launches. See CUlaunchAttributeValuecooperative. */
    readonly cooperative: 2;
    /** Valid for streams. See CUlaunchAttributeValuesyncPolicy. */
    readonly synchronizationPolicy: 3;
    /** Valid for graph nodes, launches. See CUlaunchAttributeValueclusterDim. */
    readonly clusterDimension: 4;
    /** Valid for graph nodes, launches. See CUlaunchAttributeValueclusterSchedulingPolicyPreference. */
    readonly clusterSchedulingPolicyPreference: 5;
    /** Valid for launches. Setting CUlaunchAttributeValueprogrammaticStreamSerializationAllowed to non-0 signals that the kernel will use programmatic means to resolve its stream dependency, so that the CUDA runtime should opportunistically allow the grid's execution to overlap with the previous kernel in the stream, if that kernel requests the overlap. The dependent launches can choose to wait on the dependency using the programmatic sync (cudaGridDependencySynchronize() or equivalent PTX instructions). */
    readonly programmaticStreamSerialization: 6;
    /** Valid for launches. Set CUlaunchAttributeValueprogrammaticEvent to record the event. Event recorded through this launch attribute is guaranteed to only trigger after all block in the associated kernel trigger the event. A block can trigger the event through PTX launchdep.release or CUDA builtin function cudaTriggerProgrammaticLaunchCompletion(). A trigger can also be inserted at the beginning of each block's execution if triggerAtBlockStart is set to non-0. The dependent launches can choose to wait on the dependency using the programmatic sync (cudaGridDependencySynchronize() or equivalent PTX instructions). Note that dependents (including the CPU thread calling cuEventSynchronize()) are not guaranteed to observe the release precisely when it is released.  For example, cuEventSynchronize() may only observe the event trigger long after the associated kernel has completed. This recording type is primarily meant for establishing programmatic dependency between device tasks. Note also this type of dependency allows, but does not guarantee, concurrent execution of tasks. <br> The event supplied must not be an interprocess or interop event. The event must disable timing (i.e. must be created with the CU_EVENT_DISABLE_TIMING flag set). */
    readonly programmaticEvent: 7;
    /** Valid for streams, graph nodes, launches. See CUlaunchAttributeValuepriority. */
    readonly priority: 8;
    /** Valid for streams, graph nodes, launches. See CUlaunchAttributeValuememSyncDomainMap. */
    readonly memSyncDomainMap: 9;
    /** Valid for streams, graph nodes, launches. See CUlaunchAttributeValuememSyncDomain. */
    readonly memSyncDomain: 10;
    /** Valid for graph nodes, launches. Set CUlaunchAttributeValuepreferredClusterDim to allow the kernel launch to specify a preferred substitute cluster dimension. Blocks may be grouped according to either the dimensions specified with this attribute (grouped into a "preferred substitute cluster"), or the one specified with CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION attribute (grouped into a "regular cluster"). The cluster dimensions of a "preferred substitute cluster" shall be an integer multiple greater than zero of the regular cluster dimensions. The device will attempt - on a best-effort basis - to group thread blocks into preferred clusters over grouping them into regular clusters. When it deems necessary (primarily when the device temporarily runs out of physical resources to launch the larger preferred clusters), the device may switch to launch the regular clusters instead to attempt to utilize as much of the physical device resources as possible. <br> Each type of cluster will have its enumeration / coordinate setup as if the grid consists solely of its type of cluster. For example, if the preferred substitute cluster dimensions double the regular cluster dimensions, there might be simultaneously a regular cluster indexed at (1,0,0), and a preferred cluster indexed at (1,0,0). In this example, the preferred substitute cluster (1,0,0) replaces regular clusters (2,0,0) and (3,0,0) and groups their blocks. <br> This attribute will only take effect when a regular cluster dimension has been specified. The preferred substitute cluster dimension must be an integer multiple greater than zero of the regular cluster dimension and must divide the grid. It must also be no more than `maxBlocksPerCluster`, if it is set in the kernel's `__launch_bounds__`. Otherwise it must be less than the maximum value the driver can support. Otherwise, setting this attribute to a value physically unable to fit on any particular device is permitted. */
    readonly preferredClusterDimension: 11;
    /** Valid for launches. Set CUlaunchAttributeValuelaunchCompletionEvent to record the event. <br> Nominally, the event is triggered once all blocks of the kernel have begun execution. Currently this is a best effort. If a kernel B has a launch completion dependency on a kernel A, B may wait until A is complete. Alternatively, blocks of B may begin before all blocks of A have begun, for example if B can claim execution resources unavailable to A (e.g. they run on different GPUs) or if B is a higher priority than A. Exercise caution if such an ordering inversion could lead to deadlock. <br> A launch completion event is nominally similar to a programmatic event with \c triggerAtBlockStart set except that it is not visible to \c cudaGridDependencySynchronize() and can be used with compute capability less than 9.0. <br> The event supplied must not be an interprocess or interop event. The event must disable timing (i.e. must be created with the CU_EVENT_DISABLE_TIMING flag set). */
    readonly launchCompletionEvent: 12;
    /** Valid for graph nodes, launches. This attribute is graphs-only, and passing it to a launch in a non-capturing stream will result in an error. <br> CUlaunchAttributeValuedeviceUpdatableKernelNodedeviceUpdatable can only be set to 0 or 1. Setting the field to 1 indicates that the corresponding kernel node should be device-updatable. On success, a handle will be returned via CUlaunchAttributeValuedeviceUpdatableKernelNodedevNode which can be passed to the various device-side update functions to update the node's kernel parameters from within another kernel. For more information on the types of device updates that can be made, as well as the relevant limitations thereof, see cudaGraphKernelNodeUpdatesApply. <br> Nodes which are device-updatable have additional restrictions compared to regular kernel nodes. Firstly, device-updatable nodes cannot be removed from their graph via cuGraphDestroyNode. Additionally, once opted-in to this functionality, a node cannot opt out, and any attempt to set the deviceUpdatable attribute to 0 will result in an error. Device-updatable kernel nodes also cannot have their attributes copied to/from another kernel node via cuGraphKernelNodeCopyAttributes. Graphs containing one or more device-updatable nodes also do not allow multiple instantiation, and neither the graph nor its instantiated version can be passed to cuGraphExecUpdate. <br> If a graph contains device-updatable nodes and updates those nodes from the device from within the graph, the graph must be uploaded with cuGraphUpload before it is launched. For such a graph, if host-side executable graph updates are made to the device-updatable nodes, the graph must be uploaded before it is launched again. */
    readonly deviceUpdatableKernelNode: 13;
    /** Valid for launches. On devices where the L1 cache and shared memory use the same hardware resources, setting CUlaunchAttributeValuesharedMemCarveout to a percentage between 0-100 signals the CUDA driver to set the shared memory carveout preference, in percent of the total shared memory for that kernel launch. This attribute takes precedence over CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT. This is only a hint, and the CUDA driver can choose a different configuration if required for the launch. */
    readonly preferredSharedMemoryCarveout: 14;
    /** Valid for streams, graph nodes, launches. This attribute is a hint to the CUDA runtime that the launch should attempt to make the kernel maximize its NVLINK utilization. <br> When possible to honor this hint, CUDA will assume each block in the grid launch will carry out an even amount of NVLINK traffic, and make a best-effort attempt to adjust the kernel launch based on that assumption. <br> This attribute is a hint only. CUDA makes no functional or performance guarantee. Its applicability can be affected by many different factors, including driver version (i.e. CUDA doesn't guarantee the performance characteristics will be maintained between driver versions or a driver update could alter or regress previously observed perf characteristics.) It also doesn't guarantee a successful result, i.e. applying the attribute may not improve the performance of either the targeted kernel or the encapsulating application. <br> Valid values for CUlaunchAttributeValuenvlinkUtilCentricScheduling are 0 (disabled) and 1 (enabled). */
    readonly nvlinkUtilCentricScheduling: 16;
};
/** A name of {@link LaunchAttribute}. */
export type LaunchAttributeName = keyof typeof LaunchAttribute;
/** The driver's CUaccessProperty values by name. */
export declare const AccessProperty: {
    /** Normal cache persistence. */
    readonly normal: 0;
    /** Streaming access is less likely to persit from cache. */
    readonly streaming: 1;
    /** Persisting access is more likely to persist in cache. */
    readonly persisting: 2;
};
/** A name of {@link AccessProperty}. */
export type AccessPropertyName = keyof typeof AccessProperty;
/** The driver's CUsynchronizationPolicy values by name. */
export declare const SynchronizationPolicy: {
    readonly auto: 1;
    readonly spin: 2;
    readonly yield: 3;
    readonly blockingSync: 4;
};
/** A name of {@link SynchronizationPolicy}. */
export type SynchronizationPolicyName = keyof typeof SynchronizationPolicy;
/** The driver's CUmemAttach_flags values by name. */
export declare const MemoryAttach: {
    /** Memory can be accessed by any stream on any device */
    readonly global: 1;
    /** Memory cannot be accessed by any stream on any device */
    readonly host: 2;
    /** Memory can only be accessed by a single stream on the associated device */
    readonly single: 4;
};
/** A name of {@link MemoryAttach}. */
export type MemoryAttachName = keyof typeof MemoryAttach;
/** The driver's CUmem_advise values by name. */
export declare const MemoryAdvice: {
    /** Data will mostly be read and only occasionally be written to */
    readonly setReadMostly: 1;
    /** Undo the effect of CU_MEM_ADVISE_SET_READ_MOSTLY */
    readonly unsetReadMostly: 2;
    /** Set the preferred location for the data as the specified device */
    readonly setPreferredLocation: 3;
    /** Clear the preferred location for the data */
    readonly unsetPreferredLocation: 4;
    /** Data will be accessed by the specified device, so prevent page faults as much as possible */
    readonly setAccessedBy: 5;
    /** Let the Unified Memory subsystem decide on the page faulting policy for the specified device */
    readonly unsetAccessedBy: 6;
};
/** A name of {@link MemoryAdvice}. */
export type MemoryAdviceName = keyof typeof MemoryAdvice;
/** The driver's CUmem_range_attribute values by name. */
export declare const RangeAttribute: {
    /** Whether the range will mostly be read and only occasionally be written to */
    readonly readMostly: 1;
    /** The preferred location of the range */
    readonly preferredLocation: 2;
    /** Memory range has CU_MEM_ADVISE_SET_ACCESSED_BY set for specified device */
    readonly accessedBy: 3;
    /** The last location to which the range was prefetched */
    readonly lastPrefetchLocation: 4;
    /** The preferred location type of the range */
    readonly preferredLocationType: 5;
    /** The preferred location id of the range */
    readonly preferredLocationId: 6;
    /** The last location type to which the range was prefetched */
    readonly lastPrefetchLocationType: 7;
    /** The last location id to which the range was prefetched */
    readonly lastPrefetchLocationId: 8;
};
/** A name of {@link RangeAttribute}. */
export type RangeAttributeName = keyof typeof RangeAttribute;
/** The driver's CUpointer_attribute values by name. */
export declare const PointerAttribute: {
    /** The CUcontext on which a pointer was allocated or registered */
    readonly context: 1;
    /** The CUmemorytype describing the physical location of a pointer */
    readonly memoryType: 2;
    /** The address at which a pointer's memory may be accessed on the device */
    readonly devicePointer: 3;
    /** The address at which a pointer's memory may be accessed on the host */
    readonly hostPointer: 4;
    /** A pair of tokens for use with the nv-p2p.h Linux kernel interface */
    readonly p2pTokens: 5;
    /** Synchronize every synchronous memory operation initiated on this region */
    readonly syncMemops: 6;
    /** A process-wide unique ID for an allocated memory region */
    readonly bufferId: 7;
    /** Indicates if the pointer points to managed memory */
    readonly isManaged: 8;
    /** A device ordinal of a device on which a pointer was allocated or registered */
    readonly deviceOrdinal: 9;
    /** 1 if this pointer maps to an allocation that is suitable for cudaIpcGetMemHandle, 0 otherwise * */
    readonly isLegacyCudaIpcCapable: 10;
    /** Starting address for this requested pointer */
    readonly rangeStartAddr: 11;
    /** Size of the address range for this requested pointer */
    readonly rangeSize: 12;
    /** 1 if this pointer is in a valid address range that is mapped to a backing allocation, 0 otherwise * */
    readonly mapped: 13;
    /** Bitmask of allowed CUmemAllocationHandleType for this allocation * */
    readonly allowedHandleTypes: 14;
    /** 1 if the memory this pointer is referencing can be used with the GPUDirect RDMA API * */
    readonly isGpuDirectRdmaCapable: 15;
    /** Returns the access flags the device associated with the current context has on the corresponding memory referenced by the pointer given */
    readonly accessFlags: 16;
    /** Returns the mempool handle for the allocation if it was allocated from a mempool. Otherwise returns NULL. * */
    readonly mempoolHandle: 17;
    /** Size of the actual underlying mapping that the pointer belongs to * */
    readonly mappingSize: 18;
    /** The start address of the mapping that the pointer belongs to * */
    readonly mappingBaseAddr: 19;
    /** A process-wide unique id corresponding to the physical allocation the pointer belongs to * */
    readonly memoryBlockId: 20;
    /** Returns in  *data a boolean that indicates whether the pointer points to memory that is capable to be used for hardware accelerated decompression. */
    readonly isHwDecompressCapable: 21;
};
/** A name of {@link PointerAttribute}. */
export type PointerAttributeName = keyof typeof PointerAttribute;
/** The driver's CUmemorytype values by name. */
export declare const MemoryType: {
    /** Host memory */
    readonly host: 1;
    /** Device memory */
    readonly device: 2;
    /** Array memory */
    readonly array: 3;
    /** Unified device or host memory */
    readonly unified: 4;
};
/** A name of {@link MemoryType}. */
export type MemoryTypeName = keyof typeof MemoryType;
/** The driver's CUmemPool_attribute values by name. */
export declare const PoolAttribute: {
    readonly reuseFollowEventDependencies: 1;
    readonly reuseAllowOpportunistic: 2;
    readonly reuseAllowInternalDependencies: 3;
    readonly releaseThreshold: 4;
    readonly reservedMemCurrent: 5;
    readonly reservedMemHigh: 6;
    readonly usedMemCurrent: 7;
    readonly usedMemHigh: 8;
};
/** A name of {@link PoolAttribute}. */
export type PoolAttributeName = keyof typeof PoolAttribute;
/** The driver's CUmemAllocationHandleType values by name. */
export declare const MemoryHandleType: {
    /** Does not allow any export mechanism. > */
    readonly none: 0;
    /** Allows a file descriptor to be used for exporting. Permitted only on POSIX systems. (int) */
    readonly posixFileDescriptor: 1;
    /** Allows a Win32 NT handle to be used for exporting. (HANDLE) */
    readonly win32: 2;
    /** Allows a Win32 KMT handle to be used for exporting. (D3DKMT_HANDLE) */
    readonly win32Kmt: 4;
    /** Allows a fabric handle to be used for exporting. (CUmemFabricHandle) */
    readonly fabric: 8;
};
/** A name of {@link MemoryHandleType}. */
export type MemoryHandleTypeName = keyof typeof MemoryHandleType;
/** The driver's CUmemLocationType values by name. */
export declare const MemoryLocationType: {
    readonly invalid: 0;
    /** Location is unspecified. This is used when creating a managed memory pool to indicate no preferred location for the pool */
    readonly none: 0;
    /** Location is a device location, thus id is a device ordinal */
    readonly device: 1;
    /** Location is host, id is ignored */
    readonly host: 2;
    /** Location is a host NUMA node, thus id is a host NUMA node id */
    readonly hostNuma: 3;
    /** Location is a host NUMA node of the current thread, id is ignored */
    readonly hostNumaCurrent: 4;
};
/** A name of {@link MemoryLocationType}. */
export type MemoryLocationTypeName = keyof typeof MemoryLocationType;
/** The driver's CUmemAllocationType values by name. */
export declare const MemoryAllocationType: {
    readonly invalid: 0;
    readonly pinned: 1;
    readonly managed: 2;
};
/** A name of {@link MemoryAllocationType}. */
export type MemoryAllocationTypeName = keyof typeof MemoryAllocationType;
/** The driver's CUmemAccess_flags values by name. */
export declare const MemoryAccess: {
    /** Default, make the address range not accessible */
    readonly none: 0;
    /** Make the address range read accessible */
    readonly read: 1;
    /** Make the address range read-write accessible */
    readonly readwrite: 3;
};
/** A name of {@link MemoryAccess}. */
export type MemoryAccessName = keyof typeof MemoryAccess;
/** The driver's CUfunction_attribute values by name. */
export declare const FunctionAttribute: {
    readonly maxThreadsPerBlock: 0;
    readonly sharedSizeBytes: 1;
    readonly constSizeBytes: 2;
    readonly localSizeBytes: 3;
    readonly numRegs: 4;
    readonly ptxVersion: 5;
    readonly binaryVersion: 6;
    readonly cacheModeCa: 7;
    readonly maxDynamicSharedSizeBytes: 8;
    readonly preferredSharedMemoryCarveout: 9;
    readonly clusterSizeMustBeSet: 10;
    readonly requiredClusterWidth: 11;
    readonly requiredClusterHeight: 12;
    readonly requiredClusterDepth: 13;
    readonly nonPortableClusterSizeAllowed: 14;
    readonly clusterSchedulingPolicyPreference: 15;
};
/** A name of {@link FunctionAttribute}. */
export type FunctionAttributeName = keyof typeof FunctionAttribute;
/** The driver's CUmemAllocationGranularity_flags values by name. */
export declare const AllocationGranularity: {
    /** Minimum required granularity for allocation */
    readonly minimum: 0;
    /** Recommended granularity for allocation for best performance */
    readonly recommended: 1;
};
/** A name of {@link AllocationGranularity}. */
export type AllocationGranularityName = keyof typeof AllocationGranularity;
/** The driver's CUmemAllocationCompType values by name. */
export declare const MemoryCompression: {
    /** Allocating non-compressible memory */
    readonly none: 0;
    /** Allocating  compressible memory */
    readonly generic: 1;
};
/** A name of {@link MemoryCompression}. */
export type MemoryCompressionName = keyof typeof MemoryCompression;
/** The driver's CUmemRangeHandleType values by name. */
export declare const MemoryRangeHandleType: {
    readonly dmaBufFd: 1;
};
/** A name of {@link MemoryRangeHandleType}. */
export type MemoryRangeHandleTypeName = keyof typeof MemoryRangeHandleType;
/** The driver's CUmemRangeFlags values by name. */
export declare const MemoryRangeFlag: {
    /** Indicates that DMA_BUF handle should be mapped via PCIe BAR1 */
    readonly dmaBufMappingTypePcie: 1;
};
/** A name of {@link MemoryRangeFlag}. */
export type MemoryRangeFlagName = keyof typeof MemoryRangeFlag;
/** The driver's CUipcMem_flags values by name. */
export declare const IpcMemoryFlag: {
    /** Automatically enable peer access between remote devices as needed */
    readonly lazyEnablePeerAccess: 1;
};
/** A name of {@link IpcMemoryFlag}. */
export type IpcMemoryFlagName = keyof typeof IpcMemoryFlag;
