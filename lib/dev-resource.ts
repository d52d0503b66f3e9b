// Device resources: the SMs a device, a context or a green context has, and the
// disjoint groups a split makes of them, from which green contexts are made.
// The driver's record stays in the native layer; an SmResource shows its
// numbers and hands it back by handle.
import { Disposable } from './disposable';
import { native, NativeDevResource, Slot } from './native';
import { checkFlag, checkInstance, checkInteger, checkObject, checkOptions } from './validate';

/**
 * A set of streaming multiprocessors (CU_DEV_RESOURCE_TYPE_SM): all of a
 * device's (Device.smResource()), a context's (Context.smResource()), a green
 * context's (GreenContext.smResource()), or a group made by
 * {@link splitSmResource}. GreenContext.create() makes a green context of
 * groups. Its numbers are read once; it holds no GPU resource, and dispose()
 * only frees its handle.
 */
export class SmResource extends Disposable<NativeDevResource> {
  /** How many SMs the set holds. */
  readonly smCount: number;
  /** The fewest SMs a group split from this set can have. */
  readonly minPartitionSize: number;
  /** A group's SM count is a multiple of this (SMs the hardware schedules together). */
  readonly coscheduledAlignment: number;
  /** The ordinal of the device the SMs belong to. */
  readonly deviceOrdinal: number;

  /** @internal */
  constructor(handle: Slot<NativeDevResource>) {
    super(handle);
    const info = native.devResourceInfo(handle);
    this.smCount = info.smCount;
    this.minPartitionSize = info.minPartitionSize;
    this.coscheduledAlignment = info.coscheduledAlignment;
    this.deviceOrdinal = info.ordinal;
  }

  protected override inspectSummary(): Record<string, unknown> {
    return { ...super.inspectSummary(), smCount: this.smCount };
  }

  override toString(): string {
    return this.disposed ? 'SmResource(disposed)' : `SmResource(${this.smCount} SMs, device ${this.deviceOrdinal})`;
  }
}

/** Options of {@link splitSmResource}. */
export interface SplitSmOptions {
  /**
   * The fewest SMs each group must have (0 to the resource's smCount; 0 asks
   * for the smallest group the device allows). The driver rounds it up to
   * minPartitionSize and to a multiple of coscheduledAlignment.
   */
  minCount: number;
  /** How many groups to make (at least 1); default: as many as fit. Fewer are made when fewer fit. */
  groups?: number;
  /**
   * Treat every SM on its own, ignoring which SMs the hardware schedules
   * together (CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING): smaller groups,
   * without large thread-block clusters.
   */
  ignoreCoscheduling?: boolean;
  /**
   * Shape groups so that they allow the largest thread-block clusters
   * (CU_DEV_SM_RESOURCE_SPLIT_MAX_POTENTIAL_CLUSTER_SIZE; compute capability 9.0+).
   */
  maxClusterSize?: boolean;
}

/** What {@link splitSmResource} returns. */
export interface SmSplit {
  /** The groups, disjoint, each of the same SM count. */
  groups: SmResource[];
  /**
   * The SMs no group took, or null when there are none. It has fewer
   * guarantees than a group (its SMs need not be scheduled together); it may
   * join groups of the same split in one green context.
   */
  remainder: SmResource | null;
}

/**
 * Splits a set of SMs into disjoint groups of at least options.minCount SMs
 * (cuDevSmResourceSplitByCount). A group cannot be split again: make a green
 * context of it and split that one's smResource().
 */
export function splitSmResource(resource: SmResource, options: SplitSmOptions): SmSplit {
  checkInstance(resource, SmResource, 'resource');
  checkObject(options, 'options');
  checkOptions(options, 'options', 'splitSmResource', ['minCount', 'groups', 'ignoreCoscheduling', 'maxClusterSize']);
  const minCount = checkInteger(options.minCount, 'options.minCount', 0, resource.smCount);
  const groups = options.groups === undefined ? undefined : checkInteger(options.groups, 'options.groups', 1, Math.max(1, resource.smCount));
  const flags = (checkFlag(options.ignoreCoscheduling, 'options.ignoreCoscheduling') ? 0x1 : 0) |
    (checkFlag(options.maxClusterSize, 'options.maxClusterSize') ? 0x2 : 0);
  const split = native.splitSmResource(resource.slot, groups, flags, minCount);
  return {
    groups: split.groups.map((slot) => new SmResource(slot)),
    remainder: split.remainder === null ? null : new SmResource(split.remainder),
  };
}
