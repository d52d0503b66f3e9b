// Stream memory operations (waits on and writes of 32/64-bit words, barriers),
// checked and encoded as the native layer takes them: one encoding for
// Stream.batchMemoryOps, the single-operation stream calls and graph nodes.
import {
  StreamMemoryBarrier,
  StreamMemoryBarrierName,
  StreamMemoryOperation,
  StreamWaitValueFlag,
  StreamWriteValueFlag,
} from './generated/enums';
import { MemoryHandle, memorySlot } from './memory/bytes';
import type { MemorySlot } from './native';
import { checkArray, checkEnum, checkFlag, checkInteger, checkObject, checkSize } from './validate';

/**
 * The comparison a wait on a 32/64-bit word makes (CU_STREAM_WAIT_VALUE_*):
 * 'geq' waits until (int32)(word − value) ≥ 0 (int64 for 64-bit words), a
 * comparison that wraps, so a word of 0xffffffff is below a value of 0;
 * 'eq' until word = value; 'and' until (word & value) ≠ 0; 'nor' until
 * ~(word | value) ≠ 0. A wait nothing satisfies blocks its stream for good.
 */
export type WaitCondition = 'geq' | 'eq' | 'and' | 'nor';

/** One operation of Stream.batchMemoryOps (and of a graph's memory-operations node). */
export type StreamMemoryOp =
  | {
      /** Wait until a 32- or 64-bit word satisfies condition against value. */
      op: 'waitValue32' | 'waitValue64';
      /** The memory holding the word. */
      target: MemoryHandle;
      /** Byte offset of the word in target (default 0). */
      offset?: number | bigint;
      /** The value to compare with (a bigint for 64-bit words). */
      value: number | bigint;
      /** The comparison (default 'geq'). */
      condition?: WaitCondition;
      /** Flush remote writes before the work after the wait (CU_STREAM_WAIT_VALUE_FLUSH). */
      flush?: boolean;
    }
  | {
      /** Write a 32- or 64-bit word. */
      op: 'writeValue32' | 'writeValue64';
      /** The memory holding the word. */
      target: MemoryHandle;
      /** Byte offset of the word in target (default 0). */
      offset?: number | bigint;
      /** The value to write (a bigint for 64-bit words). */
      value: number | bigint;
      /** Skip the memory barrier before the write (CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER). */
      noMemoryBarrier?: boolean;
    }
  | {
      /** A memory barrier. */
      op: 'barrier';
      /** 'sys' (default) or 'gpu'. */
      scope?: StreamMemoryBarrierName;
    }
  | {
      /** Flush writes by remote devices (CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES). */
      op: 'flushRemoteWrites';
    };

/** [operation, target, offset, value, flags] as native/stream.cc and native/graph/node_params.cc read them. */
export type EncodedMemoryOp = [number, MemorySlot | undefined, number, number | bigint, number];

const conditions = { geq: StreamWaitValueFlag.geq, eq: StreamWaitValueFlag.eq, and: StreamWaitValueFlag.and, nor: StreamWaitValueFlag.nor };

export function waitFlags(options: { condition?: WaitCondition; flush?: boolean }, name = 'options'): number {
  return checkEnum(options.condition ?? 'geq', conditions, `${name}.condition`) |
    (checkFlag(options.flush, `${name}.flush`) ? StreamWaitValueFlag.flush : 0);
}

export function writeFlags(options: { noMemoryBarrier?: boolean }, name = 'options'): number {
  return checkFlag(options.noMemoryBarrier, `${name}.noMemoryBarrier`) ? StreamWriteValueFlag.noMemoryBarrier : StreamWriteValueFlag.default;
}

/** A 64-bit word's value: a bigint in [0, 2^64). */
export function checkU64(value: unknown, name = 'value'): bigint {
  if (typeof value !== 'bigint' || value < 0n || value >= 1n << 64n) throw new TypeError(`${name} must be a bigint in [0, 2^64)`);
  return value;
}

export function encodeMemoryOps(ops: readonly StreamMemoryOp[], name: string): EncodedMemoryOp[] {
  return checkArray<StreamMemoryOp>(ops, name).map((o, i): EncodedMemoryOp => {
    const at = `${name}[${i}]`;
    checkObject(o, at);
    switch (o.op) {
      case 'waitValue32':
      case 'waitValue64':
      case 'writeValue32':
      case 'writeValue64': {
        const wide = o.op.endsWith('64');
        const value = wide ? checkU64(o.value, `${at}.value`) : checkInteger(o.value, `${at}.value`, 0, 2 ** 32 - 1);
        const flags = o.op.startsWith('wait') ? waitFlags(o as { condition?: WaitCondition; flush?: boolean }, at)
          : writeFlags(o as { noMemoryBarrier?: boolean }, at);
        return [StreamMemoryOperation[o.op], memorySlot(o.target, `${at}.target`), checkSize(o.offset ?? 0, `${at}.offset`), value, flags];
      }
      case 'barrier':
        return [StreamMemoryOperation.barrier, undefined, 0, 0, checkEnum(o.scope ?? 'sys', StreamMemoryBarrier, `${at}.scope`)];
      case 'flushRemoteWrites':
        return [StreamMemoryOperation.flushRemoteWrites, undefined, 0, 0, 0];
      default:
        throw new RangeError(`${at}.op must be waitValue32, waitValue64, writeValue32, writeValue64, barrier or flushRemoteWrites`);
    }
  });
}
