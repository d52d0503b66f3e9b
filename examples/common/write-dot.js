// `--dot <file>` on an example's command line: the example's graph is written
// there as DOT (graph.toDot), the file `npx cuda-driver dot` draws.
'use strict';
const fs = require('fs');
const { parseArgs } = require('util');

/**
 * Writes graph.toDot({ levels: true }) to the file named by --dot in args
 * (default: the command line's); returns that file, or undefined when --dot
 * was not given.
 */
function writeDotIfAsked(graph, args = process.argv.slice(2)) {
  const { values } = parseArgs({ args, options: { dot: { type: 'string' } } });
  if (values.dot === undefined) return undefined;
  fs.writeFileSync(values.dot, graph.toDot({ levels: true }));
  console.log(`wrote ${values.dot}; draw it with: npx cuda-driver dot ${values.dot} -o graph.svg`);
  return values.dot;
}

module.exports = { writeDotIfAsked };
