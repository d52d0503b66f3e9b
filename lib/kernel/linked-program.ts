// What a link produces: one CUBIN, loadable by Library.load and Module.load
// like any other code image. In a file of its own, with no imports, so that
// code-load.ts can name it without importing the linker.

/** The result of {@link link}: the linked CUBIN and what the linker said. */
export class LinkedProgram {
  /** The CUBIN image. */
  readonly code: Uint8Array;
  /** The linker's information log ('' when it said nothing). */
  readonly infoLog: string;
  /** The names of the inputs, in the order they were linked. */
  readonly inputs: readonly string[];

  /** @internal */
  constructor(code: Uint8Array, infoLog: string, inputs: readonly string[]) {
    this.code = code;
    this.infoLog = infoLog;
    this.inputs = Object.freeze([...inputs]);
  }
}
