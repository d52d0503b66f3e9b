// jest 29's node environment runs tests in a vm context whose Symbol lacks the
// Symbol.dispose / Symbol.asyncDispose that Node 20 adds to the main realm;
// hand them over, so `using` and the library's disposables behave as in Node.
const { TestEnvironment } = require('jest-environment-node');

class NodeWithDisposeEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of ['dispose', 'asyncDispose']) {
      if (this.global.Symbol[name] === undefined && Symbol[name] !== undefined) {
        Object.defineProperty(this.global.Symbol, name, { value: Symbol[name] });
      }
    }
  }
}

module.exports = NodeWithDisposeEnvironment;
