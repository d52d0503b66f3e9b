"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.expectBytes = expectBytes;
// Comparing large byte arrays without jest's element-by-element equality (slow,
// and a failure's diff of millions of elements exhausts the heap).
function expectBytes(actual, expected) {
    const a = Buffer.from(actual.buffer, actual.byteOffset, actual.byteLength);
    const b = Buffer.from(expected.buffer, expected.byteOffset, expected.byteLength);
    if (a.length !== b.length)
        throw new Error(`length ${a.length}, expected ${b.length}`);
    if (a.equals(b))
        return;
    let i = 0;
    while (a[i] === b[i])
        i++;
    throw new Error(`bytes differ first at offset ${i}: ${a[i]} instead of ${b[i]} (${a.length} bytes compared)`);
}
//# sourceMappingURL=bytes.js.map