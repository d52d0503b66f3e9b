export declare function expectBytes(actual: ArrayBufferView, expected: ArrayBufferView): void;
