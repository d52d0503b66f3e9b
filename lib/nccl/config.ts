// A communicator's configuration (ncclConfig_t): what NCCL lets a program
// choose per communicator instead of through NCCL_* environment variables.
// Checked here, encoded as native/nccl/layouts.txt's NcclConfigFields record.
import { NcclConfigFields, NcclConfigFieldsIndex } from '../generated/layouts';
import { checkBoolean, checkInteger, checkObject, checkOptions, describeValue } from '../validate';

/** How NCCL sizes its kernels (NCCL_CTA_POLICY_*). */
export type CtaPolicyName = 'default' | 'efficiency' | 'zero';

/**
 * What a communicator may be made with ({@link Communicator.init},
 * {@link Communicator.split}, {@link Communicator.shrink}). Every field is
 * optional: what is left out is NCCL's choice (its environment variables
 * still apply). A field needs the NCCL release that brought it; an older
 * library refuses it with a RangeError that names the release.
 */
export interface CommunicatorConfig {
  /** Thread-block cluster size of NCCL's kernels (0 for none; Hopper and newer). NCCL 2.17. */
  readonly cgaClusterSize?: number;
  /** The fewest CTAs (channels) a collective uses. NCCL 2.17. */
  readonly minCTAs?: number;
  /** The most CTAs (channels) a collective uses. NCCL 2.17. */
  readonly maxCTAs?: number;
  /** The network plugin to use (as NCCL_NET: 'IB', 'Socket', a plugin's name). NCCL 2.17. */
  readonly netName?: string;
  /** Whether communicators split from this one share its resources. NCCL 2.18. */
  readonly splitShare?: boolean;
  /** The traffic class NCCL's network traffic carries (for the network's QoS). NCCL 2.25. */
  readonly trafficClass?: number;
  /** A name NCCL shows in its logs and to profilers. NCCL 2.23. */
  readonly commName?: string;
  /** Whether collectives may use CollNet (in-network reduction). NCCL 2.27. */
  readonly collnetEnable?: boolean;
  /** How NCCL sizes its kernels: 'efficiency' uses fewer SMs, 'zero' none where it can. NCCL 2.27. */
  readonly ctaPolicy?: CtaPolicyName;
  /** Whether communicators shrunk from this one share its resources. NCCL 2.27. */
  readonly shrinkShare?: boolean;
}

/** The NCCL_CTA_POLICY_* value of each policy name. */
export const CtaPolicy = Object.freeze({
  /** NCCL's usual kernel sizes. */
  default: 0,
  /** Fewer SMs for the same bandwidth where NCCL can. */
  efficiency: 1,
  /** No SMs where NCCL can move the data without kernels. */
  zero: 2,
} as const);

const unset = -(2 ** 31);
const version = (major: number, minor: number): number => major * 10000 + minor * 100;

// Each field: the NCCL release that reads it, and how its value is checked and encoded.
const fields: Record<keyof CommunicatorConfig, { since: number; index?: NcclConfigFieldsIndex }> = {
  cgaClusterSize: { since: version(2, 17), index: NcclConfigFieldsIndex.cgaClusterSize },
  minCTAs: { since: version(2, 17), index: NcclConfigFieldsIndex.minCTAs },
  maxCTAs: { since: version(2, 17), index: NcclConfigFieldsIndex.maxCTAs },
  netName: { since: version(2, 17) },
  splitShare: { since: version(2, 18), index: NcclConfigFieldsIndex.splitShare },
  trafficClass: { since: version(2, 25), index: NcclConfigFieldsIndex.trafficClass },
  commName: { since: version(2, 23) },
  collnetEnable: { since: version(2, 27), index: NcclConfigFieldsIndex.collnetEnable },
  ctaPolicy: { since: version(2, 27), index: NcclConfigFieldsIndex.ctaPolicy },
  shrinkShare: { since: version(2, 27), index: NcclConfigFieldsIndex.shrinkShare },
};

/** @internal A configuration as ncclCommInit/Split/Shrink take it: [NcclConfigFields record, netName, commName]. */
export type EncodedConfig = [record: Uint8Array, netName: string, commName: string];

function checkName(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.includes('\0')) {
    throw new TypeError(`${name} must be a non-empty string without NUL characters; got ${describeValue(value)}`);
  }
  return value;
}

/** @internal Checks a configuration (undefined: NCCL's defaults) against the loaded NCCL's version and encodes it. */
export function encodeConfig(config: CommunicatorConfig | undefined, name: string, method: string, ncclVersion: number): EncodedConfig {
  const values = new Int32Array(NcclConfigFieldsIndex.count).fill(unset);
  if (config === undefined) return [new Uint8Array(values.buffer, 0, NcclConfigFields.bytes), '', ''];
  checkObject(config, name);
  checkOptions(config, name, method, Object.keys(fields));
  for (const key of Object.keys(fields) as (keyof CommunicatorConfig)[]) {
    if (config[key] === undefined) continue;
    const { since } = fields[key];
    if (ncclVersion < since) {
      throw new RangeError(`${name}.${key} needs NCCL ${Math.floor(since / 10000)}.${Math.floor(since / 100) % 100} or newer; ` +
        `this NCCL is ${Math.floor(ncclVersion / 10000)}.${Math.floor(ncclVersion / 100) % 100}`);
    }
  }
  const at = (key: keyof CommunicatorConfig): number => fields[key].index!;
  const flag = (key: 'splitShare' | 'collnetEnable' | 'shrinkShare'): void => {
    if (config[key] !== undefined) values[at(key)] = checkBoolean(config[key], `${name}.${key}`) ? 1 : 0;
  };
  if (config.cgaClusterSize !== undefined) values[at('cgaClusterSize')] = checkInteger(config.cgaClusterSize, `${name}.cgaClusterSize`, 0, 8);
  if (config.minCTAs !== undefined) values[at('minCTAs')] = checkInteger(config.minCTAs, `${name}.minCTAs`, 1, 2 ** 31 - 1);
  if (config.maxCTAs !== undefined) values[at('maxCTAs')] = checkInteger(config.maxCTAs, `${name}.maxCTAs`, 1, 2 ** 31 - 1);
  if (config.minCTAs !== undefined && config.maxCTAs !== undefined && config.minCTAs > config.maxCTAs) {
    throw new RangeError(`${name}.minCTAs (${config.minCTAs}) is more than ${name}.maxCTAs (${config.maxCTAs})`);
  }
  if (config.trafficClass !== undefined) values[at('trafficClass')] = checkInteger(config.trafficClass, `${name}.trafficClass`, 0, 2 ** 31 - 1);
  if (config.ctaPolicy !== undefined) {
    if (typeof config.ctaPolicy !== 'string' || !Object.prototype.hasOwnProperty.call(CtaPolicy, config.ctaPolicy)) {
      throw new TypeError(`${name}.ctaPolicy must be one of ${Object.keys(CtaPolicy).map((k) => `'${k}'`).join(', ')}; ` +
        `got ${describeValue(config.ctaPolicy)}`);
    }
    values[at('ctaPolicy')] = CtaPolicy[config.ctaPolicy];
  }
  flag('splitShare');
  flag('collnetEnable');
  flag('shrinkShare');
  const netName = config.netName === undefined ? '' : checkName(config.netName, `${name}.netName`);
  const commName = config.commName === undefined ? '' : checkName(config.commName, `${name}.commName`);
  return [new Uint8Array(values.buffer, 0, NcclConfigFields.bytes), netName, commName];
}
