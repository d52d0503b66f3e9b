// `cuda-driver dot <input>`: a graph drawn as SVG by Graphviz where it is
// installed, as DOT otherwise. The input is a DOT file, or a JavaScript module
// that builds a graph (a Graph, or anything with toDot(), a DOT string, or a
// function returning one of these).
'use strict';
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { pathToFileURL } = require('url');
const { exit } = require('./cli');

/** The Graphviz `dot` program: GRAPHVIZ_DOT, else the first `dot` on PATH; null when there is none. */
function findGraphviz(env) {
  if (env.GRAPHVIZ_DOT) return env.GRAPHVIZ_DOT;
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, 'dot');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** What the module exports as the graph: the named export, else the default export (or its `graph`). */
function pickExport(namespace, name) {
  const exported = namespace.default;
  if (name !== undefined) {
    if (name in namespace) return namespace[name];
    if (exported !== null && typeof exported === 'object' && name in exported) return exported[name];
    throw new Error(`the module has no export named '${name}'`);
  }
  if (exported !== undefined && !isGraphLike(exported) && exported !== null && typeof exported === 'object' && 'graph' in exported) {
    return exported.graph;
  }
  if (exported === undefined && 'graph' in namespace) return namespace.graph;
  return exported;
}

/** True for the error the package throws at the first call that needs a driver it cannot use. */
function isDriverUnavailable(error, cuda) {
  return (cuda && error instanceof cuda.DriverUnavailableError) || (error && error.constructor && error.constructor.name === 'DriverUnavailableError');
}

function isGraphLike(value) {
  return typeof value === 'string' || typeof value === 'function' || (value !== null && typeof value === 'object' && typeof value.toDot === 'function');
}

/** DOT text from a module's export. */
async function dotFromModule(file, options) {
  const namespace = await import(pathToFileURL(file).href);
  let value = pickExport(namespace, options.export);
  if (typeof value === 'function') value = await value();
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object' && typeof value.toDot === 'function') {
    return value.toDot({ levels: options.levels === true, direction: options.direction, name: options.name });
  }
  throw new Error(`${path.relative(process.cwd(), file)} exports no graph: export a Graph (module.exports = graph, ` +
    'export default graph, or a function returning one), or name the export with --export');
}

/** What to write: 'svg' or 'dot', from --format, else from the output file's extension, else SVG. */
function wantedFormat(options) {
  if (options.format) return options.format;
  if (options.output && /\.(dot|gv)$/i.test(options.output)) return 'dot';
  return 'svg';
}

async function dot(input, options, io) {
  const file = path.resolve(input);
  if (!fs.existsSync(file)) {
    io.stderr.write(`cuda-driver dot: ${input} does not exist\n`);
    return exit.failed;
  }
  let text;
  if (/\.(dot|gv)$/i.test(file)) {
    text = fs.readFileSync(file, 'utf8');
  } else {
    const cuda = require('..');
    try {
      text = await dotFromModule(file, options);
    } catch (error) {
      if (!isDriverUnavailable(error, cuda)) {
        io.stderr.write(`cuda-driver dot: ${input} did not give a graph: ${error && error.stack ? error.stack : error}\n`);
        return exit.failed;
      }
      io.stderr.write(`cuda-driver dot: ${input} needs a GPU to build its graph, and there is none usable here ` +
        `(${cuda.driverStatus().reason}); give a saved DOT file instead\n`);
      return exit.noGpu;
    }
  }

  let format = wantedFormat(options);
  let output = options.output;
  let result = text;
  if (format === 'svg') {
    const graphviz = findGraphviz(io.env);
    if (graphviz) {
      const run = spawnSync(graphviz, ['-Tsvg'], { input: text, encoding: 'utf8', maxBuffer: 1 << 30 });
      if (run.error || run.status !== 0) {
        io.stderr.write(`cuda-driver dot: ${graphviz} failed: ${run.error ? run.error.message : run.stderr.trim()}\n`);
        return exit.failed;
      }
      result = run.stdout;
    } else if (options.format === 'svg') {
      // Asked for by name: DOT in its place would be a file the caller cannot use as SVG.
      io.stderr.write(`cuda-driver dot: --format svg needs Graphviz's dot, which is not installed here: install Graphviz ` +
        '(apt install graphviz, brew install graphviz), set GRAPHVIZ_DOT to its dot program, or use --format dot\n');
      return exit.failed;
    } else {
      format = 'dot';
      if (output && /\.svg$/i.test(output)) output = output.replace(/\.svg$/i, '.dot');
      io.stderr.write(`cuda-driver dot: Graphviz's dot is not installed (or set GRAPHVIZ_DOT); writing DOT${output ? ` to ${output}` : ''} instead of SVG\n`);
    }
  }
  if (output) {
    fs.writeFileSync(output, result);
    io.stderr.write(`wrote ${output} (${format.toUpperCase()})\n`);
  } else {
    io.stdout.write(result.endsWith('\n') ? result : `${result}\n`);
  }
  return exit.ok;
}

module.exports = { dot };
