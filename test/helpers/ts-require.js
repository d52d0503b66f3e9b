// Lets a plain Node process (a test's child) require the TypeScript files under
// test/: each is transpiled on load, without type checking (tsc does that). The
// output is cached by file and modification time, so that children started by
// the hundred (the fault-injection walk) do not each load the compiler.
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { threadId } = require('worker_threads');

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
    // Worker threads share a pid, and several may transpile the same file at
    // once: each writes its own partial file, and the cache is only a cache, so
    // a failed write leaves the module loaded all the same.
    const partial = `${cached}.${process.pid}.${threadId}.${crypto.randomBytes(4).toString('hex')}`;
    try {
      fs.mkdirSync(cacheDir, { recursive: true });
      fs.writeFileSync(partial, output);
      fs.renameSync(partial, cached);
    } catch {
      fs.rmSync(partial, { force: true });
    }
  }
  module._compile(output, filename);
};
