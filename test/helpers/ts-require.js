// Lets a plain Node process (a test's child) require the TypeScript files under
// test/: each is transpiled on load, without type checking (tsc does that). The
// output is cached by file and modification time, so that children started by
// the hundred (the fault-injection walk) do not each load the compiler.
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');

const cacheDir = path.join(os.tmpdir(), 'cuda-driver-ts-cache');
let ts;

require.extensions['.ts'] = (module, filename) => {
  const stamp = fs.statSync(filename).mtimeMs;
  const key = crypto.createHash('sha1').update(`${filename}\0${stamp}`).digest('hex');
  const cached = path.join(cacheDir, `${key}.js`);
  let output;
  try {
    output = fs.readFileSync(cached, 'utf8');
  } catch {
    ts ??= require('typescript');
    output = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, sourceMap: false },
      fileName: filename,
    }).outputText;
    fs.mkdirSync(cacheDir, { recursive: true });
    const partial = `${cached}.${process.pid}`;
    fs.writeFileSync(partial, output);
    fs.renameSync(partial, cached);
  }
  module._compile(output, filename);
};
