#!/usr/bin/env node
// Generates lib/generated/enums.ts: the driver's enums as typed constant maps
// (camelCase names, the header's own values), so TypeScript takes names where
// C takes numbers and the two cannot drift.
//
// The header's comments are read only to judge entries (deprecated, sentinel);
// none of their text is emitted: NVIDIA's prose may not ship in this package.
// Names and values are facts, so each doc comment is made from those alone.
//
// Usage: node scripts/gen-enums.js [cuda include dir]
'use strict';
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');
const include = process.argv[2] || path.join(process.env.CUDA_PATH || '/usr/local/cuda', 'include');
const header = fs.readFileSync(path.join(include, 'cuda.h'), 'utf8');

// [C typedef name, exported name, prefix to strip, name style, renames].
// Styles: 'keep' (the C name), 'camel', 'kebab' (INTEGER_ADD -> integer-add)
// and 'bytes': camel with a size's B kept upper case (SWIZZLE_128B_ATOM_32B ->
// 128BAtom32B), as sizes are written. renames: names given outright, by the
// rest of the C name (CAS -> compare-and-swap), where the style would give an
// abbreviation.
// A prefix given as [prefix, optional] also strips `optional` after it
// (CU_TENSOR_MAP_L2_PROMOTION_L2_64B -> 64B, _NONE -> none).
const ENUMS = [
  ['CUresult', 'CudaResult', '', 'keep'],
  ['CUdevice_attribute', 'DeviceAttribute', 'CU_DEVICE_ATTRIBUTE_', 'camel'],
  ['CUdevice_P2PAttribute', 'P2PAttribute', 'CU_DEVICE_P2P_ATTRIBUTE_', 'camel'],
  ['CUlimit', 'ContextLimit', 'CU_LIMIT_', 'camel'],
  ['CUctx_flags', 'ContextFlag', 'CU_CTX_', 'camel'],
  ['CUstream_flags', 'StreamFlag', 'CU_STREAM_', 'camel'],
  ['CUevent_flags', 'EventFlag', 'CU_EVENT_', 'camel'],
  ['CUevent_record_flags', 'EventRecordFlag', 'CU_EVENT_RECORD_', 'camel'],
  ['CUevent_wait_flags', 'EventWaitFlag', 'CU_EVENT_WAIT_', 'camel'],
  ['CUstreamWaitValue_flags', 'StreamWaitValueFlag', 'CU_STREAM_WAIT_VALUE_', 'camel'],
  ['CUstreamWriteValue_flags', 'StreamWriteValueFlag', 'CU_STREAM_WRITE_VALUE_', 'camel'],
  ['CUstreamBatchMemOpType', 'StreamMemoryOperation', 'CU_STREAM_MEM_OP_', 'camel'],
  ['CUstreamMemoryBarrier_flags', 'StreamMemoryBarrier', 'CU_STREAM_MEMORY_BARRIER_TYPE_', 'camel'],
  ['CUstreamCaptureMode', 'CaptureMode', 'CU_STREAM_CAPTURE_MODE_', 'camel'],
  ['CUstreamCaptureStatus', 'CaptureStatus', 'CU_STREAM_CAPTURE_STATUS_', 'camel'],
  ['CUstreamUpdateCaptureDependencies_flags', 'CaptureDependencyUpdate', 'CU_STREAM_', 'camel'],
  ['CUlaunchAttributeID', 'LaunchAttribute', 'CU_LAUNCH_ATTRIBUTE_', 'camel'],
  ['CUaccessProperty', 'AccessProperty', 'CU_ACCESS_PROPERTY_', 'camel'],
  ['CUsynchronizationPolicy', 'SynchronizationPolicy', 'CU_SYNC_POLICY_', 'camel'],
  ['CUmemAttach_flags', 'MemoryAttach', 'CU_MEM_ATTACH_', 'camel'],
  ['CUmem_advise', 'MemoryAdvice', 'CU_MEM_ADVISE_', 'camel'],
  ['CUmem_range_attribute', 'RangeAttribute', 'CU_MEM_RANGE_ATTRIBUTE_', 'camel'],
  ['CUpointer_attribute', 'PointerAttribute', 'CU_POINTER_ATTRIBUTE_', 'camel'],
  ['CUmemorytype', 'MemoryType', 'CU_MEMORYTYPE_', 'camel'],
  ['CUmemPool_attribute', 'PoolAttribute', 'CU_MEMPOOL_ATTR_', 'camel'],
  ['CUmemAllocationHandleType', 'MemoryHandleType', 'CU_MEM_HANDLE_TYPE_', 'camel'],
  ['CUmemLocationType', 'MemoryLocationType', 'CU_MEM_LOCATION_TYPE_', 'camel'],
  ['CUmemAllocationType', 'MemoryAllocationType', 'CU_MEM_ALLOCATION_TYPE_', 'camel'],
  ['CUmemAccess_flags', 'MemoryAccess', 'CU_MEM_ACCESS_FLAGS_PROT_', 'camel'],
  ['CUfunction_attribute', 'FunctionAttribute', 'CU_FUNC_ATTRIBUTE_', 'camel'],
  ['CUmemAllocationGranularity_flags', 'AllocationGranularity', 'CU_MEM_ALLOC_GRANULARITY_', 'camel'],
  ['CUmemAllocationCompType', 'MemoryCompression', 'CU_MEM_ALLOCATION_COMP_', 'camel'],
  ['CUmemRangeHandleType', 'MemoryRangeHandleType', 'CU_MEM_RANGE_HANDLE_TYPE_', 'camel'],
  ['CUmemRangeFlags', 'MemoryRangeFlag', 'CU_MEM_RANGE_FLAG_', 'camel'],
  ['CUipcMem_flags', 'IpcMemoryFlag', 'CU_IPC_MEM_', 'camel'],
  ['CUgraphDebugDot_flags', 'GraphDebugDotFlag', 'CU_GRAPH_DEBUG_DOT_FLAGS_', 'camel'],
  ['CUprocessState', 'ProcessState', 'CU_PROCESS_STATE_', 'camel'],
  ['CUtensorMapDataType', 'TensorMapDataType', 'CU_TENSOR_MAP_DATA_TYPE_', 'bytes'],
  ['CUtensorMapInterleave', 'TensorMapInterleave', 'CU_TENSOR_MAP_INTERLEAVE_', 'bytes'],
  ['CUtensorMapSwizzle', 'TensorMapSwizzle', 'CU_TENSOR_MAP_SWIZZLE_', 'bytes'],
  ['CUtensorMapL2promotion', 'TensorMapL2Promotion', ['CU_TENSOR_MAP_L2_PROMOTION_', 'L2_'], 'bytes'],
  ['CUtensorMapFloatOOBfill', 'TensorMapOobFill', 'CU_TENSOR_MAP_FLOAT_OOB_FILL_', 'camel'],
  ['CUtensorMapIm2ColWideMode', 'TensorMapIm2colWideMode', 'CU_TENSOR_MAP_IM2COL_WIDE_MODE_', 'camel'],
  ['CUatomicOperation', 'AtomicOperation', 'CU_ATOMIC_OPERATION_', 'kebab', { CAS: 'compare-and-swap' }],
  ['CUatomicOperationCapability', 'AtomicCapability', 'CU_ATOMIC_CAPABILITY_', 'kebab'],
];

const camel = (s) => s.toLowerCase().replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
const styles = {
  keep: (s, name) => name,
  camel,
  kebab: (s) => s.toLowerCase().replace(/_/g, '-'),
  bytes: (s) => camel(s).replace(/(\d)b(?=[A-Z]|$)/g, '$1B'),
};

function parseEnum(typedefName) {
  const re = new RegExp(`typedef enum \\w*\\s*\\{([^}]*)\\}\\s*${typedefName}\\s*;`);
  const m = header.match(re);
  if (!m) throw new Error(`enum ${typedefName} not found in cuda.h`);
  // Preprocessor lines go (the entries under them are kept). Comments are taken out first (so that no word inside one is read as an
  // entry) and left as markers: a doc comment before an entry belongs to it, a
  // trailing one (/**< ... */) to the entry before it. Their text is only tested, never copied out.
  const comments = [];
  const body = m[1].replace(/^\s*#.*$/gm, '').replace(/\/\*([\s\S]*?)\*\/|\/\/[^\n]*/g, (text, inner) => {
    comments.push({ trailing: inner !== undefined && inner.startsWith('*<'), doc: inner !== undefined && inner.startsWith('*'), text: inner ?? '' });
    return ` @${comments.length - 1}@ `;
  });
  const entries = [];
  const known = new Map();
  let next = 0;
  let leading = '';
  for (const piece of body.split(',')) {
    let entry = null;
    for (const token of piece.split(/(@\d+@)/)) {
      const marker = /^@(\d+)@$/.exec(token);
      if (marker) {
        const c = comments[Number(marker[1])];
        if (c.trailing) {
          const target = entry ?? entries[entries.length - 1];
          if (target) target.trailing = c.text;
        } else if (c.doc) {
          leading = c.text;
        }
        continue;
      }
      const e = /^\s*([A-Z][A-Za-z0-9_]*)\s*(?:=\s*([^]+?))?\s*$/.exec(token);
      if (!e) {
        if (token.trim()) throw new Error(`${typedefName}: cannot read '${token.trim()}'`);
        continue;
      }
      entry = { name: e[1], rawValue: e[2], leading, trailing: '' };
      leading = '';
      entries.push(entry);
    }
  }
  const out = [];
  for (const { name, rawValue, leading: before, trailing } of entries) {
    let value;
    if (rawValue === undefined) value = next;
    else {
      const expr = rawValue.trim().replace(/\b[A-Z][A-Z0-9_]*\b/g, (ref) => {
        if (!known.has(ref)) throw new Error(`${typedefName}: ${name} refers to unknown ${ref}`);
        return String(known.get(ref));
      }).replace(/(\d+)[uUlL]+\b/g, '$1');
      if (!/^[0-9a-fA-Fx\s()<>|+-]+$/.test(expr)) throw new Error(`${typedefName}: cannot evaluate ${rawValue}`);
      value = Function(`return (${expr});`)();
    }
    known.set(name, value);
    next = value + 1;
    // Deprecation and sentinels are judged by the trailing comment, as the header marks them there.
    const deprecated = /deprecated/i.test(trailing);
    // A _MAX entry with a value of its own below the int limit is a real one
    // (CU_ATOMIC_OPERATION_INTEGER_MAX = 2), not the count after the last.
    const counted = /_MAX$/.test(name) && rawValue !== undefined && value < 0x7fffffff;
    const sentinel = /_MAX$|_FORCE_INT$|_MASK$/.test(name) && !trailing && !counted;
    // Values the header writes in hex (flags, masks) are shown in hex too.
    const hex = rawValue !== undefined && /0x|<</i.test(rawValue);
    if (!deprecated && !sentinel) out.push({ name, value, hex, deprecated: /\\deprecated/.test(before) });
  }
  return out;
}

const lines = [
  '// Generated by scripts/gen-enums.js from cuda.h; do not edit.',
  '/* eslint-disable */',
  '',
];
for (const [typedefName, exportName, prefixes, style, renames = {}] of ENUMS) {
  const [prefix, optional = ''] = typeof prefixes === 'string' ? [prefixes] : prefixes;
  const entries = parseEnum(typedefName);
  lines.push(`/** Values of the driver's \`${typedefName}\`, by name. */`);
  lines.push(`export const ${exportName} = {`);
  const seen = new Set();
  for (const { name, value, hex, deprecated } of entries) {
    if (!name.startsWith(prefix)) continue;
    let rest = name.slice(prefix.length);
    if (optional && rest.startsWith(optional)) rest = rest.slice(optional.length);
    const key = renames[rest] ?? styles[style](rest, name);
    if (seen.has(key)) continue;
    seen.add(key);
    // Every entry names its C constant, so a reader of the driver's documentation finds it.
    const shown = hex && value >= 0 ? `0x${value.toString(16)}` : String(value);
    lines.push(`  /** \`${name}\` = ${shown}.${deprecated ? ' @deprecated' : ''} */`);
    lines.push(`  ${/^[a-zA-Z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}: ${value},`);
  }
  lines.push('} as const;');
  lines.push(`/** A name of {@link ${exportName}}. */`);
  lines.push(`export type ${exportName}Name = keyof typeof ${exportName};`);
  lines.push('');
}
fs.mkdirSync(path.join(root, 'lib/generated'), { recursive: true });
fs.writeFileSync(path.join(root, 'lib/generated/enums.ts'), lines.join('\n'));
console.log(`lib/generated/enums.ts: ${ENUMS.length} enums`);
