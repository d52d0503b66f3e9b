#!/usr/bin/env node
// Generates docs/driver-api-map.md: for each driver function of the table
// (native/driver/functions.h), the TypeScript API that reaches it. Nothing in
// the page is written by hand; it is derived in three steps:
//
// 1. native/: every function body is found (comments and strings blanked,
//    braces matched), with the driver functions it calls (CU_CALL, CU_CHECK,
//    CU_CHECK_DETAIL; a call inside releaseWhenSafe(...) is a release) and the
//    other native functions it calls. A driver call is traced back through the
//    callers to the functions JavaScript reaches: the entries the tables declare
//    (native/**/entries.txt, read through scripts/gen-boundary.js) and box
//    destructors (a handle's release: dispose() or garbage collection).
// 2. lib/: with the TypeScript compiler, every use of a member of the generated
//    view (lib/native.ts, NativeAddon) is found, and traced back
//    through lib's own callers to the public API that lib/index.ts exports.
// 3. The two are joined by name: entry `f` is NativeAddon.f; the destructor of
//    the box of handle class C releases what every lib class extending
//    Disposable<NativeC> disposes.
//
//   node scripts/gen-api-map.js           writes the page
//   node scripts/gen-api-map.js --check   exits 1 if the page is out of date
'use strict';
const fs = require('fs');
const path = require('path');
const { cppName, readEntries } = require('./gen-boundary');

const root = path.resolve(__dirname, '..');
const pagePath = path.join(root, 'docs', 'driver-api-map.md');
// A helper reached from more entry points than this is named instead of listing them all.
const maxListed = 8;

// ---------------------------------------------------------------- native/

/** Driver functions of the table, in order. */
function tableFunctions() {
  const text = fs.readFileSync(path.join(root, 'native/driver/functions.h'), 'utf8');
  return [...text.matchAll(/^\s*X\((\w+),/gm)].map((m) => m[1]);
}

/** Scope categories from docs/driver-api-scope.md: name -> category heading. */
function scopeCategories() {
  const text = fs.readFileSync(path.join(root, 'docs/driver-api-scope.md'), 'utf8');
  const category = new Map();
  let heading = null;
  for (const line of text.split('\n')) {
    const h = /^##\s+(.+?)(?:\s+\(\d+\))?\s*$/.exec(line);
    if (h) heading = h[1];
    const item = /^-\s+(cu\w+)\s*$/.exec(line);
    if (item && heading) category.set(item[1], heading);
  }
  return category;
}

function listFiles(dir, test) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? listFiles(p, test) : test(e.name) ? [p] : [];
  }).sort();
}

/**
 * Two views of a C++ source with the same offsets: `code` has comments and
 * preprocessor lines blanked; `bare` also has string and character literals blanked.
 */
function blank(source) {
  const code = source.split('');
  const bare = source.split('');
  const wipe = (arrays, from, to) => {
    for (let i = from; i < to; i++) for (const a of arrays) if (a[i] !== '\n') a[i] = ' ';
  };
  let i = 0;
  let lineStart = true;
  while (i < source.length) {
    const c = source[i];
    const next = source[i + 1];
    if (lineStart && /^[ \t]*#/.test(source.slice(i, source.indexOf('\n', i) + 1 || undefined))) {
      // A preprocessor line, with its continuations.
      let end = i;
      do {
        end = source.indexOf('\n', end);
        if (end < 0) end = source.length;
        else end += 1;
      } while (source[end - 2] === '\\' && end < source.length);
      wipe([code, bare], i, end);
      i = end;
      continue;
    }
    lineStart = false;
    if (c === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      const stop = end < 0 ? source.length : end;
      wipe([code, bare], i, stop);
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end < 0 ? source.length : end + 2;
      wipe([code, bare], i, stop);
      i = stop;
    } else if (c === 'R' && next === '"') {
      const open = source.indexOf('(', i);
      const delimiter = source.slice(i + 2, open);
      const close = source.indexOf(`)${delimiter}"`, open);
      const stop = close < 0 ? source.length : close + delimiter.length + 2;
      wipe([bare], i + 1, stop);
      i = stop;
    } else if (c === '"' || (c === "'" && !/[0-9A-Fa-f]/.test(source[i - 1] || ''))) {
      let j = i + 1;
      while (j < source.length && source[j] !== c) j += source[j] === '\\' ? 2 : 1;
      wipe([bare], i + 1, j);
      i = j + 1;
    } else {
      if (c === '\n') lineStart = true;
      i += 1;
    }
  }
  return { code: code.join(''), bare: bare.join('') };
}

/** The offset of the bracket closing the one at `open`, in blanked text. */
function matching(text, open) {
  const pairs = { '{': '}', '(': ')', '[': ']' };
  const close = pairs[text[open]];
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === text[open]) depth++;
    else if (text[i] === close && --depth === 0) return i;
  }
  throw new Error(`unbalanced '${text[open]}' at offset ${open}`);
}

/** Arguments of a call whose '(' is at `open`, split at top-level commas, as [start, end] ranges. */
function argumentRanges(bare, open) {
  const close = matching(bare, open);
  const ranges = [];
  let start = open + 1;
  let depth = 0;
  for (let i = open + 1; i < close; i++) {
    const c = bare[i];
    if (c === '(' || c === '{' || c === '[') depth++;
    else if (c === ')' || c === '}' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      ranges.push([start, i]);
      start = i + 1;
    }
  }
  ranges.push([start, close]);
  return ranges;
}

const notCalls = new Set(['if', 'for', 'while', 'switch', 'return', 'sizeof', 'alignof', 'decltype', 'catch', 'static_cast',
  'reinterpret_cast', 'const_cast', 'dynamic_cast', 'noexcept', 'static_assert', 'defined']);

/**
 * Every function defined in a file: its qualified name (Class::method, or the
 * free name), its body's range, and the class scope it was defined in.
 */
function functionDefinitions(file, bare) {
  const definitions = [];
  const scan = (from, to, scope) => {
    let headerStart = from;
    for (let i = from; i < to; i++) {
      const c = bare[i];
      if (c === ';' || c === '}') {
        headerStart = i + 1;
      } else if (c === '(' || c === '[') {
        i = matching(bare, i); // parentheses never hold a scope's body we need
      } else if (c === '{') {
        const header = bare.slice(headerStart, i).replace(/\s+/g, ' ').trim();
        const close = matching(bare, i);
        const kind = classify(header);
        if (kind.type === 'namespace') scan(i + 1, close, scope);
        else if (kind.type === 'class') scan(i + 1, close, [...scope, kind.name]);
        else if (kind.type === 'variable') {
          // A table whose rows hold lambdas that call the driver (graph/node_kinds.cc):
          // a unit of its own, reached from every function that names it.
          definitions.push({ file, name: kind.name, short: kind.name, start: i, end: close, variable: true });
        } else if (kind.type === 'function') {
          const qualified = kind.name.includes('::') || scope.length === 0 ? kind.name : `${scope[scope.length - 1]}::${kind.name}`;
          definitions.push({ file, name: qualified, short: kind.name.split('::').pop(), start: i, end: close });
        }
        i = close;
        headerStart = close + 1;
      }
    }
  };
  scan(0, bare.length, []);
  return definitions;
}

function classify(header) {
  if (/(^|\s)namespace(\s|$)/.test(header) || /^extern\s*"?\s*"?\s*$/.test(header) || header === 'extern') return { type: 'namespace' };
  if (/\benum\b/.test(header)) return { type: 'other' };
  const cls = /\b(?:class|struct|union)\s+(?:\[\[[^\]]*\]\]\s*)?(\w+)[^()=]*$/.exec(header);
  if (cls && !header.includes('(')) return { type: 'class', name: cls[1] };
  const variable = /(\w+)\s*(?:\[\w*\])?\s*=$/.exec(header);
  if (variable && !header.includes('(')) return { type: 'variable', name: variable[1] };
  if (/=\s*$/.test(header) || /=\s*\[/.test(header) || header === '') return { type: 'other' };
  // The first top-level '(' follows the function's name: `T Name(...)`, `A::B(...) : init(...)`.
  const fn = /(~?[A-Za-z_]\w*(?:\s*::\s*~?[A-Za-z_]\w*)*)\s*(?:<[^()]*>)?\s*\(/.exec(header);
  if (fn && !/^(if|for|while|switch|catch|return)$/.test(fn[1]) && !/[=]\s*$/.test(header.slice(0, fn.index))) {
    return { type: 'function', name: fn[1].replace(/\s+/g, '') };
  }
  return { type: 'other' };
}

/** Everything the native layer says about itself: definitions, calls, entry points, handle classes. */
function scanNative(driverNames) {
  const driver = new Set(driverNames);
  const files = listFiles(path.join(root, 'native'), (n) => n.endsWith('.cc') || n.endsWith('.h'));
  const definitions = [];
  const moduleFunctions = readEntries().entries.map((e) => ({ js: e.name, cpp: cppName(e.name) })); // { js, cpp }
  const handleBoxes = new Map(); // box type -> handle class (C++ name, which is also its JavaScript name)
  const handlesOfFile = new Map(); // file without extension -> handle classes it defines
  const boxFiles = new Map(); // box type -> file without extension that defines it
  for (const file of files) {
    const source = fs.readFileSync(file, 'utf8');
    const { code, bare } = blank(source);
    const rel = path.relative(root, file);
    const defined = functionDefinitions(rel, bare);
    // A driver call outside every function body found would be missed: refuse to guess.
    for (const m of bare.matchAll(/\bCU_(?:CALL|CHECK_DETAIL|CHECK)\s*\(|\bdriver\.cu\w+\s*\(/g)) {
      if (!defined.some((d) => m.index > d.start && m.index < d.end)) {
        const line = bare.slice(0, m.index).split('\n').length;
        throw new Error(`${rel}:${line}: a driver call outside any function body this script can find; teach scripts/gen-api-map.js the construct`);
      }
    }
    for (const d of defined) {
      const body = bare.slice(d.start, d.end + 1);
      const releases = [...body.matchAll(/\breleaseWhenSafe\s*\(/g)].map((m) => {
        const open = d.start + m.index + m[0].length - 1;
        return [open, matching(bare, open)];
      });
      d.driverCalls = [];
      for (const m of body.matchAll(/\bCU_(CALL|CHECK_DETAIL|CHECK)\s*\(/g)) {
        const open = d.start + m.index + m[0].length - 1;
        const args = argumentRanges(bare, open);
        const which = { CALL: 0, CHECK: 1, CHECK_DETAIL: 2 }[m[1]];
        const name = bare.slice(...args[which]).trim();
        if (!driver.has(name)) throw new Error(`${rel}: ${m[0]} names '${name}', which native/driver/functions.h does not list`);
        d.driverCalls.push({ name, release: releases.some(([a, b]) => open > a && open < b) });
      }
      // The loader's own calls: through the table without counting (driver.cuInit(0)), and the
      // bootstrap symbol it looks up itself (dlsym(library, "cuGetProcAddress_v2")).
      for (const m of body.matchAll(/\bdriver\.(cu\w+)\s*\(/g)) {
        if (driver.has(m[1])) d.driverCalls.push({ name: m[1], release: false });
      }
      for (const m of code.slice(d.start, d.end + 1).matchAll(/\bdlsym\([^,]+,\s*"(cu\w+?)(?:_v\d+)?"\)/g)) {
        if (driver.has(m[1])) d.driverCalls.push({ name: m[1], release: false });
      }
      d.body = body;
      d.calls = new Set([...body.matchAll(/(?:^|[^\w.>:])(?:\w+::)*(~?[A-Za-z_]\w*)\s*\(/g)].map((m) => m[1]).filter((n) => !notCalls.has(n)));
      // Member calls (x.f(), x->f()) name functions too.
      for (const m of body.matchAll(/(?:\.|->)\s*([A-Za-z_]\w*)\s*\(/g)) d.calls.add(m[1]);
      // A table's rows name their functions without calling them (function pointers).
      if (d.variable) for (const m of body.matchAll(/\b[A-Za-z_]\w*\b/g)) d.calls.add(m[0]);
      definitions.push(d);
    }
    for (const m of bare.matchAll(/\b(?:class|struct)\s+(\w+)\s*(?:final\s*)?:\s*public\s+Handle<\s*\1\s*,\s*(\w+)\s*>/g)) {
      handleBoxes.set(m[2], m[1]);
      addTo(handlesOfFile, stem(rel), m[1]);
    }
    for (const m of bare.matchAll(/\b(?:class|struct)\s+(\w+Box)\b\s*(?:final\s*)?[:{]/g)) boxFiles.set(m[1], stem(rel));
  }
  // A function that names a table of driver-calling rows reaches what the rows call.
  for (const table of definitions.filter((d) => d.variable)) {
    const named = new RegExp(`\\b${table.name}\\b`);
    for (const d of definitions) {
      if (d !== table && d.file === table.file && named.test(d.body)) d.calls.add(table.name);
    }
  }
  // A box no handle holds directly (an opening shared by views) belongs to the handles of its file.
  const handlesOfBox = (box) => (handleBoxes.has(box) ? [handleBoxes.get(box)] : [...(handlesOfFile.get(boxFiles.get(box)) ?? [])]);
  return { definitions, moduleFunctions, handlesOfBox };
}

const stem = (file) => file.replace(/\.(cc|h)$/, '');

// The labels of the first labelled units met going up callers from start
// (breadth first; a path stops at its first labelled unit).
function firstReached(start, callers, labelsOf) {
  const found = new Set();
  const seen = new Set([start]);
  const queue = [start];
  while (queue.length) {
    const u = queue.shift();
    const labels = labelsOf(u);
    if (labels) {
      for (const label of labels) found.add(label);
      continue;
    }
    for (const c of callers.get(u) ?? []) if (!seen.has(c)) seen.add(c), queue.push(c);
  }
  return found;
}

function addTo(map, key, value) {
  if (!map.has(key)) map.set(key, new Set());
  map.get(key).add(value);
}

/**
 * For each driver function, what JavaScript reaches it: [{ entry, via }],
 * entry being `fn` (an entry) or `release:Box`, and
 * via the native helper that makes the call when it is not the entry itself.
 */
function nativeEntries(scan) {
  const byShort = new Map();
  for (const d of scan.definitions) {
    if (!byShort.has(d.short)) byShort.set(d.short, []);
    byShort.get(d.short).push(d);
  }
  // An entry is a free function of that name (namespace cudrv; no class scope).
  const resolve = (cpp) => (byShort.get(cpp) ?? []).filter((d) => d.name === cpp);
  const entryOf = new Map(); // definition -> entry names
  const mark = (d, name) => addTo(entryOf, d, name);
  for (const f of scan.moduleFunctions) for (const d of resolve(f.cpp)) mark(d, f.js);
  for (const d of scan.definitions) {
    const destructor = /(?:^|::)~(\w+)$/.exec(d.name);
    if (destructor) mark(d, `release:${destructor[1]}`);
  }
  const callers = new Map(); // definition -> definitions calling it
  for (const d of scan.definitions) {
    for (const name of d.calls) {
      for (const target of byShort.get(name) ?? []) {
        if (target !== d) addTo(callers, target, d);
      }
    }
  }
  const reach = (start) => firstReached(start, callers, (d) => entryOf.get(d));
  const result = new Map();
  const add = (fn, entry) => {
    if (!result.has(fn)) result.set(fn, []);
    const list = result.get(fn);
    if (!list.some((e) => e.entry === entry.entry && e.via === entry.via && e.release === entry.release)) list.push(entry);
  };
  for (const d of scan.definitions) {
    for (const call of d.driverCalls) {
      const entries = entryOf.has(d) ? entryOf.get(d) : reach(d);
      const via = entryOf.has(d) ? undefined : d.name;
      if (entries.size > maxListed) {
        add(call.name, { entry: null, via: d.name, count: entries.size, release: call.release });
        continue;
      }
      if (entries.size === 0) add(call.name, { entry: null, via: d.name, count: 0, release: call.release });
      for (const e of entries) add(call.name, { entry: e, via, release: call.release || e.startsWith('release:') });
    }
  }
  return result;
}

// ---------------------------------------------------------------- lib/

/**
 * For each addon name the TypeScript layer uses (`fn` for NativeAddon.fn,
 * `Class.member` for NativeClass.member), the public API names reaching it;
 * and for each native handle class, the public classes disposing it.
 */
function scanLib() {
  const ts = require('typescript');
  const configPath = path.join(root, 'tsconfig.build.json');
  const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  const program = ts.createProgram({ rootNames: config.fileNames, options: { ...config.options, noEmit: true } });
  const checker = program.getTypeChecker();
  const libDir = path.join(root, 'lib') + path.sep;
  const nativeFiles = new Set([path.join(root, 'lib', 'native.ts')]);
  const sources = program.getSourceFiles().filter((s) => path.resolve(s.fileName).startsWith(libDir));

  const resolveSymbol = (symbol) => (symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
  const isInternal = (node) => ts.getJSDocTags(node).some((t) => t.tagName.text === 'internal');
  const isPrivate = (node) => (ts.getCombinedModifierFlags(node) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !== 0
    || (node.name && ts.isPrivateIdentifier(node.name));

  // The public API: what lib/index.ts exports, with its members.
  const publicName = new Map(); // declaration node -> display name
  const index = program.getSourceFile(path.join(root, 'lib', 'index.ts'));
  for (const exported of checker.getExportsOfModule(checker.getSymbolAtLocation(index))) {
    const symbol = resolveSymbol(exported);
    for (const decl of symbol.declarations ?? []) {
      if (ts.isClassDeclaration(decl)) {
        for (const member of decl.members) {
          if (!member.name && !ts.isConstructorDeclaration(member)) continue;
          if (isPrivate(member) || isInternal(member)) continue;
          if (ts.isConstructorDeclaration(member)) publicName.set(member, `new ${exported.name}()`);
          else if (ts.isMethodDeclaration(member)) publicName.set(member, `${exported.name}.${memberName(member)}()`);
          else publicName.set(member, `${exported.name}.${memberName(member)}`);
        }
      } else if (ts.isFunctionDeclaration(decl)) {
        publicName.set(decl, `${exported.name}()`);
      } else if (ts.isVariableDeclaration(decl)) {
        publicName.set(decl, exported.name);
        if (decl.initializer && ts.isObjectLiteralExpression(stripAs(decl.initializer))) {
          for (const p of stripAs(decl.initializer).properties) {
            if (!p.name) continue;
            const call = ts.isMethodDeclaration(p) || (ts.isPropertyAssignment(p) && ts.isFunctionLike(p.initializer));
            publicName.set(p, `${exported.name}.${memberName(p)}${call ? '()' : ''}`);
          }
        }
      }
    }
  }
  // Methods a module adds to an exported class (Stream.prototype.capture = function ...).
  const exportedNames = new Set(checker.getExportsOfModule(checker.getSymbolAtLocation(index)).map((e) => e.name));
  for (const source of sources) {
    for (const statement of source.statements) {
      if (!ts.isExpressionStatement(statement) || !ts.isBinaryExpression(statement.expression)) continue;
      const { left, right } = statement.expression;
      if (!ts.isPropertyAccessExpression(left) || !ts.isFunctionExpression(right)) continue;
      const owner = left.expression;
      if (ts.isPropertyAccessExpression(owner) && owner.name.text === 'prototype' && exportedNames.has(owner.expression.getText())) {
        publicName.set(right, `${owner.expression.getText()}.${left.name.text}()`);
      }
    }
  }
  function stripAs(node) {
    while (ts.isAsExpression(node) || ts.isSatisfiesExpression?.(node) || ts.isParenthesizedExpression(node)) node = node.expression;
    return node;
  }
  function memberName(member) {
    return ts.isComputedPropertyName(member.name) ? `[${member.name.expression.getText()}]` : member.name.text ?? member.name.getText();
  }

  // The named unit of code a node belongs to: a method, accessor, function, or module-level declaration.
  const unitOf = (node) => {
    for (let n = node.parent; n; n = n.parent) {
      if (ts.isMethodDeclaration(n) || ts.isGetAccessorDeclaration(n) || ts.isSetAccessorDeclaration(n)
        || ts.isConstructorDeclaration(n) || ts.isFunctionDeclaration(n) || ts.isPropertyDeclaration(n)) return n;
      if (ts.isPropertyAssignment(n) && publicName.has(n)) return n;
      if (ts.isFunctionExpression(n) && publicName.has(n)) return n;
      if (ts.isVariableDeclaration(n) && ts.isSourceFile(n.parent.parent.parent)) return n;
      if (ts.isSourceFile(n)) return n;
    }
    return undefined;
  };
  // The units a symbol names: its declarations that are units themselves.
  const unitsOfSymbol = (symbol) => (symbol?.declarations ?? []).filter((d) => ts.isMethodDeclaration(d) || ts.isGetAccessorDeclaration(d)
    || ts.isSetAccessorDeclaration(d) || ts.isFunctionDeclaration(d) || ts.isPropertyAssignment(d) || ts.isPropertyDeclaration(d)
    || (ts.isVariableDeclaration(d) && ts.isSourceFile(d.parent.parent.parent)));

  const nativeUses = new Map(); // addon name -> units using it
  const callers = new Map(); // unit -> units referring to it
  const disposers = new Map(); // native class (JavaScript name) -> public class names
  const nativeMember = (decl) => {
    if (!nativeFiles.has(path.resolve(decl.getSourceFile().fileName))) return null;
    const owner = decl.parent;
    if (!owner || !ts.isInterfaceDeclaration(owner) || !decl.name) return null;
    const iface = owner.name.text;
    if (iface === 'NativeAddon') return decl.name.text;
    if (iface === 'NativeHandle') return null; // dispose(): the handle's release, joined through Disposable<NativeX>
    return `${iface.replace(/^Native/, '')}.${decl.name.text}`;
  };

  for (const source of sources) {
    if (nativeFiles.has(path.resolve(source.fileName))) continue;
    const visit = (node) => {
      if (ts.isClassDeclaration(node) && node.name) {
        for (const clause of node.heritageClauses ?? []) {
          for (const type of clause.types) {
            // Disposable<NativeX>, or a base between them (Memory<NativeX>).
            if (type.typeArguments?.length === 1 && /^Native\w+$/.test(type.typeArguments[0].getText())) {
              const className = node.name.text;
              const exported = [...publicName.values()].some((n) => n.startsWith(`${className}.`) || n === `new ${className}()`);
              if (exported) addTo(disposers, type.typeArguments[0].getText().replace(/^Native/, ''), className);
            }
          }
        }
      }
      if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) {
        const unit = unitOf(node);
        if (unit && !(node.parent && node.parent.name === node && (unitsOfSymbol(checker.getSymbolAtLocation(node)).includes(node.parent)))) {
          const symbol = resolveSymbol(checker.getSymbolAtLocation(node));
          if (symbol) {
            for (const decl of symbol.declarations ?? []) {
              const name = nativeMember(decl);
              if (name) addTo(nativeUses, name, unit);
            }
            for (const target of unitsOfSymbol(symbol)) if (target !== unit) addTo(callers, target, unit);
            // `new X()` reaches X's constructor.
            if (ts.isNewExpression(node.parent) && node.parent.expression === node) {
              for (const decl of symbol.declarations ?? []) {
                if (ts.isClassDeclaration(decl)) for (const m of decl.members) if (ts.isConstructorDeclaration(m)) addTo(callers, m, unit);
              }
            }
            // super(...) reaches the base constructor; plain overrides need no edge (the call names the base member).
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }

  // Public units reaching a unit, stopping at the first public one on each path.
  const publicReach = (start) => firstReached(start, callers, (u) => (publicName.has(u) ? [publicName.get(u)] : undefined));
  const uses = new Map();
  for (const [name, units] of nativeUses) {
    const names = new Set();
    for (const u of units) for (const n of publicReach(u)) names.add(n);
    uses.set(name, [...names].sort());
  }
  return { uses, disposers };
}

// ---------------------------------------------------------------- the page

function render() {
  const functions = tableFunctions();
  const categories = scopeCategories();
  const scan = scanNative(functions);
  const entries = nativeEntries(scan);
  const lib = scanLib();

  // One way a driver function is reached: TypeScript names and a native description.
  const describe = (e) => {
    if (e.entry === null && e.count > 0) {
      return { ts: [], helper: `\`${e.via}()\` (${e.count} entry points)`, native: `${e.via}()` };
    }
    if (e.entry === null) return { ts: [], native: `${e.via}() (reached from no entry point)` };
    if (e.entry.startsWith('release:')) {
      const box = e.entry.slice('release:'.length);
      const classes = scan.handlesOfBox(box).flatMap((h) => [...(lib.disposers.get(h) ?? [])]);
      return { ts: classes.map((c) => `${c}.dispose()`), native: `~${box}${e.via ? ` via ${e.via}()` : ''}`, release: true };
    }
    return { ts: lib.uses.get(e.entry) ?? [], native: `${e.entry}()${e.via ? ` via ${e.via}()` : ''}`, release: e.release };
  };
  const rows = new Map(functions.map((fn) => [fn, (entries.get(fn) ?? []).map(describe)]));
  const uncalled = functions.filter((f) => rows.get(f).length === 0);
  const unreachedFromTs = functions.filter((f) => rows.get(f).length > 0 && rows.get(f).every((r) => r.ts.length === 0 && !r.helper));

  const groups = new Map();
  for (const fn of functions) {
    const c = categories.get(fn) ?? 'Not in driver-api-scope.md';
    if (!groups.has(c)) groups.set(c, []);
    groups.get(c).push(fn);
  }
  const code = (s) => `\`${s}\``;
  const out = [
    '# Driver functions and their TypeScript names',
    '',
    '<!-- Generated by scripts/gen-api-map.js from native/ and lib/; do not edit. Regenerate: npm run gen:api-map -->',
    '',
    'Every driver function the addon binds (`native/driver/functions.h`, grouped as in',
    '[driver-api-scope.md](driver-api-scope.md)), with the public TypeScript API that reaches it and the',
    'native entry point that makes the call.',
    '',
    '- **TypeScript**: what `lib/index.ts` exports that leads to the call. `X.dispose()` rows are releases:',
    '  the call is made when the handle is disposed or garbage-collected (through `releaseWhenSafe`, so never',
    '  while a capture is active).',
    `- **Native**: the addon function or method (\`Class.method()\`) that JavaScript calls, with the helper that`,
    '  makes the driver call (`via`); `~Box` is a handle box\'s destructor. A helper shared by more than',
    `  ${maxListed} entry points is named instead of listing them (e.g. \`makeCurrent()\`, which every call that`,
    '  acts on the current context makes).',
    '',
    'The page is derived from the sources, so it cannot drift: each `CU_CALL`/`CU_CHECK` use in `native/` is',
    'traced back through its callers to what the addon exports, then through `lib/` (with the TypeScript',
    'compiler) to what `lib/index.ts` exports. A unit test fails when the page is out of date.',
    '',
  ];
  for (const [category, list] of groups) {
    out.push(`## ${category} (${list.length})`, '', '| Driver function | TypeScript | Native |', '| --- | --- | --- |');
    for (const fn of list) {
      const r = rows.get(fn);
      if (r.length === 0) {
        out.push(`| ${code(fn)} | — | not called |`);
        continue;
      }
      const ts = [...new Set(r.flatMap((x) => x.ts.map((n) => (x.release ? `${code(n)} (release)` : code(n)))))].sort();
      const helpers = [...new Set(r.filter((x) => x.helper).map((x) => `any call through ${x.helper}`))].sort();
      const natives = [...new Set(r.map((x) => code(x.native)))].sort();
      out.push(`| ${code(fn)} | ${[...ts, ...helpers].join('<br>') || '—'} | ${natives.join('<br>')} |`);
    }
    out.push('');
  }
  out.push(`## In the table, called by no code (${uncalled.length})`, '');
  out.push(uncalled.length ? uncalled.map((f) => `- ${code(f)}`).join('\n') : 'None.', '');
  out.push(`## Called by the native layer, reached by no public TypeScript API (${unreachedFromTs.length})`, '');
  out.push(unreachedFromTs.length ? unreachedFromTs.map((f) => `- ${code(f)}`).join('\n') : 'None.', '');
  return { page: out.join('\n'), uncalled, unreachedFromTs };
}

module.exports = { render, pagePath, blank, functionDefinitions };

if (require.main === module) {
  const { page, uncalled } = render();
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(pagePath) ? fs.readFileSync(pagePath, 'utf8') : '';
    if (current !== page) {
      console.error(`${path.relative(root, pagePath)} is out of date: run npm run gen:api-map`);
      process.exit(1);
    }
    console.log(`${path.relative(root, pagePath)} is up to date`);
  } else {
    fs.writeFileSync(pagePath, page);
    console.log(`wrote ${path.relative(root, pagePath)} (${uncalled.length} table functions called by no code)`);
  }
}
