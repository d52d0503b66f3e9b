// GPU coredump settings (cuCoredump*): for the whole process, or for one
// context. Environment variables set before CUDA starts (CUDA_ENABLE_COREDUMP_ON_EXCEPTION,
// ...) take precedence over what is set here, as the driver documents.
import { Context } from './context';
import { native } from './native';
import { checkBoolean, checkCString, checkFlags, checkInstance, checkObject, checkOptions, flagNames, noOptions } from './validate';

/** What each coredump attribute holds (CUcoredumpSettings), by name. */
export interface CoredumpAttributes {
  /** GPU exceptions write a coredump (CU_COREDUMP_ENABLE_ON_EXCEPTION). */
  'enable-on-exception': boolean;
  /** The host process dumps core too (CU_COREDUMP_TRIGGER_HOST; the driver deprecates it for 'skip-abort'). */
  'trigger-host': boolean;
  /** Dumps leave out memory (CU_COREDUMP_LIGHTWEIGHT; the driver deprecates it for generation-flags). */
  lightweight: boolean;
  /** A write to the pipe ('pipe') makes a dump (CU_COREDUMP_ENABLE_USER_TRIGGER; process-wide only). */
  'enable-user-trigger': boolean;
  /** Where dumps are written (CU_COREDUMP_FILE), at most 1023 bytes of UTF-8. */
  file: string;
  /** The pipe watched for user-triggered dumps (CU_COREDUMP_PIPE; process-wide only), at most 1023 bytes. */
  pipe: string;
  /** What a dump leaves out (CU_COREDUMP_GENERATION_FLAGS); [] is the driver's default, everything. */
  'generation-flags': CoredumpGenerationFlagName[];
}
/** A name of {@link CoredumpAttributes}. */
export type CoredumpAttributeName = keyof CoredumpAttributes;

const attributeNumbers: Record<CoredumpAttributeName, number> = {
  'enable-on-exception': 1,
  'trigger-host': 2,
  lightweight: 3,
  'enable-user-trigger': 4,
  file: 5,
  pipe: 6,
  'generation-flags': 7,
};
const kinds: Record<CoredumpAttributeName, 'bool' | 'string' | 'flags'> = {
  'enable-on-exception': 'bool',
  'trigger-host': 'bool',
  lightweight: 'bool',
  'enable-user-trigger': 'bool',
  file: 'string',
  pipe: 'string',
  'generation-flags': 'flags',
};

/** The parts a dump can leave out (CUCoredumpGenerationFlags), by name. */
export const CoredumpGenerationFlag = {
  /** Leave out the code images that were not relocated at load. */
  'skip-nonrelocated-elf-images': 1 << 0,
  /** Leave out global memory that belongs to no context. */
  'skip-global-memory': 1 << 1,
  /** Leave out shared memory. */
  'skip-shared-memory': 1 << 2,
  /** Leave out local memory. */
  'skip-local-memory': 1 << 3,
  /** GPU exceptions do not abort() the host process. */
  'skip-abort': 1 << 4,
  /** Leave out constant banks. */
  'skip-constbank-memory': 1 << 5,
} as const;
/** A name of {@link CoredumpGenerationFlag}. */
export type CoredumpGenerationFlagName = keyof typeof CoredumpGenerationFlag;

/** Options of {@link getCoredumpAttribute} and {@link setCoredumpAttribute}. */
export interface CoredumpOptions {
  /** The context whose setting this is (cuCoredumpGetAttribute); default: the process's (…Global). */
  context?: Context;
}

/** The longest path the driver keeps, less its NUL. */
const maxPathBytes = 1023;

function attributeOf(name: unknown): CoredumpAttributeName {
  if (typeof name !== 'string' || !Object.prototype.hasOwnProperty.call(attributeNumbers, name)) {
    throw new RangeError(`name must be one of ${Object.keys(attributeNumbers).join(', ')}; got ${String(name)}`);
  }
  return name as CoredumpAttributeName;
}

function contextOf(options: CoredumpOptions, method: string): number | undefined {
  checkObject(options, 'options');
  checkOptions(options, 'options', method, ['context']);
  return options.context === undefined ? undefined : checkInstance(options.context, Context, 'options.context').slot;
}

/**
 * A coredump setting: `getCoredumpAttribute('enable-on-exception')` → false.
 * Process-wide unless options.context names a context.
 */
export function getCoredumpAttribute<K extends CoredumpAttributeName>(name: K, options: CoredumpOptions = noOptions): CoredumpAttributes[K] {
  const attribute = attributeOf(name);
  const context = contextOf(options, 'getCoredumpAttribute');
  const bytes = native.coredumpGetAttribute(context, attributeNumbers[attribute]);
  switch (kinds[attribute]) {
    case 'bool':
      return (bytes.some((b) => b !== 0)) as CoredumpAttributes[K];
    case 'string': {
      const end = bytes.indexOf(0);
      return bytes.subarray(0, end < 0 ? bytes.length : end).toString('utf8') as CoredumpAttributes[K];
    }
    case 'flags':
      return flagNames(bytes.length >= 4 ? bytes.readUInt32LE(0) : bytes[0], CoredumpGenerationFlag) as CoredumpAttributes[K];
  }
}

/**
 * Sets a coredump setting, process-wide unless options.context names a
 * context: `setCoredumpAttribute('file', '/tmp/gpu.core')`. The driver keeps
 * 'enable-user-trigger' and 'pipe' per process only, and refuses a new pipe
 * once user triggers are on.
 */
export function setCoredumpAttribute<K extends CoredumpAttributeName>(name: K, value: CoredumpAttributes[K], options: CoredumpOptions = noOptions): void {
  const attribute = attributeOf(name);
  const context = contextOf(options, 'setCoredumpAttribute');
  let bytes: Uint8Array;
  switch (kinds[attribute]) {
    case 'bool':
      bytes = Uint8Array.of(checkBoolean(value, 'value') ? 1 : 0);
      break;
    case 'string': {
      const text = Buffer.from(checkCString(value, 'value'), 'utf8');
      if (text.length === 0 || text.length > maxPathBytes) throw new RangeError(`value must be 1 to ${maxPathBytes} bytes of UTF-8, got ${text.length}`);
      bytes = Buffer.concat([text, Buffer.alloc(1)]);
      break;
    }
    case 'flags': {
      const word = Buffer.alloc(4);
      word.writeUInt32LE(checkFlags(value, CoredumpGenerationFlag, 'value'));
      bytes = word;
      break;
    }
  }
  native.coredumpSetAttribute(context, attributeNumbers[attribute], bytes);
}
