// The cuda-driver command line: argument parsing and dispatch. Each command
// lives in a file of its own (devices.js, dot.js, counters.js).
'use strict';
const util = require('util');

const usage = `Usage: cuda-driver <command> [options]

Commands:
  devices [--json]
      List the visible devices and their capabilities.

  dot <input> [-o <file>] [--format svg|dot] [--export <name>] [--levels] [--direction TB|LR] [--name <name>]
      Draw a graph. <input> is a DOT file (.dot, .gv) or a JavaScript module
      whose export is a Graph (module.exports = graph, export default graph, or
      a function, maybe async, returning one; --export names another export).
      Writes SVG where Graphviz's dot is installed (or GRAPHVIZ_DOT names it),
      DOT otherwise (--format svg then fails instead); to <file>, or to
      standard output.

  counters [--json] [-o <file>] <script> [args...]
      Run a Node.js script with driver call counting on, and print how often it
      called each driver function when it exits (to standard error, or <file>).

Options:
  -h, --help       Show this help.
  -v, --version    Show the package version.

Exit status: 0 done; 1 failed; 2 bad usage; 3 no usable GPU (the message says why).
counters exits with the script's own status.`;

/** Exit statuses. */
const exit = { ok: 0, failed: 1, usage: 2, noGpu: 3 };

class UsageError extends Error {
  constructor(message) {
    super(message);
    this.name = 'UsageError';
  }
}

// What each command accepts: option name -> 'flag' | 'value' (with allowed values, when fixed).
const commands = {
  devices: { options: { json: 'flag' }, positionals: [0, 0] },
  dot: {
    options: { output: 'value', format: ['svg', 'dot'], export: 'value', levels: 'flag', direction: ['TB', 'LR'], name: 'value' },
    positionals: [1, 1],
  },
  // The script and everything after it belong to the script.
  counters: { options: { json: 'flag', output: 'value' }, positionals: [1, Infinity], restFromFirstPositional: true },
};
const short = { o: 'output', h: 'help', v: 'version' };

/**
 * Parses the arguments after `cuda-driver`: { command, options, positionals }.
 * Throws UsageError for anything it does not understand. util.parseArgs reads
 * the tokens (non-strict, so that each refusal says what to do in our words).
 */
function parseArgs(argv) {
  if (argv.length === 0) throw new UsageError('no command given');
  const [first, ...rest] = argv;
  if (first === '-h' || first === '--help' || first === 'help') return { command: 'help', options: {}, positionals: [] };
  if (first === '-v' || first === '--version') return { command: 'version', options: {}, positionals: [] };
  const spec = commands[first];
  if (!spec) throw new UsageError(`unknown command '${first}'`);
  const config = { help: { type: 'boolean', short: 'h' } };
  for (const [name, kind] of Object.entries(spec.options)) {
    config[name] = { type: kind === 'flag' ? 'boolean' : 'string' };
    const letter = Object.keys(short).find((k) => short[k] === name);
    if (letter) config[name].short = letter;
  }
  const { tokens } = util.parseArgs({ args: rest, options: config, strict: false, allowPositionals: true, tokens: true });
  const options = {};
  const positionals = [];
  for (const token of tokens) {
    if (token.kind === 'option-terminator') continue;
    if (token.kind === 'positional') {
      // counters: the script and everything after it are the script's.
      if (spec.restFromFirstPositional) {
        positionals.push(...rest.slice(token.index));
        break;
      }
      positionals.push(token.value);
      continue;
    }
    const { name, rawName } = token;
    if (name === 'help') return { command: 'help', options: {}, positionals: [] };
    const kind = Object.prototype.hasOwnProperty.call(spec.options, name) ? spec.options[name] : undefined;
    if (!kind) throw new UsageError(`${first} has no option '${rawName}'`);
    if (kind === 'flag') {
      if (token.value !== undefined) throw new UsageError(`option --${name} takes no value`);
      options[name] = true;
      continue;
    }
    if (token.value === undefined) throw new UsageError(`option --${name} needs a value`);
    if (Array.isArray(kind) && !kind.includes(token.value)) {
      throw new UsageError(`option --${name} must be one of ${kind.join(', ')}; got '${token.value}'`);
    }
    options[name] = token.value;
  }
  const [min, max] = spec.positionals;
  if (positionals.length < min) throw new UsageError(`${first} needs ${first === 'counters' ? 'a script to run' : 'an input file'}`);
  if (positionals.length > max) throw new UsageError(`${first} takes ${max === 0 ? 'no arguments' : `${max} argument`}; got '${positionals.slice(max).join(' ')}'`);
  return { command: first, options, positionals };
}

/**
 * Runs the command line; resolves to the exit status. io: { stdout, stderr, env }.
 */
async function main(argv, io) {
  let parsed;
  try {
    parsed = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`cuda-driver: ${error.message}\n\n${usage}\n`);
    return exit.usage;
  }
  switch (parsed.command) {
    case 'help':
      io.stdout.write(`${usage}\n`);
      return exit.ok;
    case 'version':
      io.stdout.write(`${require('../package.json').version}\n`);
      return exit.ok;
    case 'devices':
      return require('./devices').devices(parsed.options, io);
    case 'dot':
      return require('./dot').dot(parsed.positionals[0], parsed.options, io);
    case 'counters':
      return require('./counters').counters(parsed.positionals[0], parsed.positionals.slice(1), parsed.options, io);
    default:
      throw new Error(`unhandled command ${parsed.command}`);
  }
}

module.exports = { main, parseArgs, UsageError, exit, usage };
