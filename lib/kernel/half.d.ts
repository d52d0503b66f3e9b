/** The f16 bits of a number (round to nearest even; overflow to ±Infinity). */
export declare function toFloat16Bits(value: number): number;
/** The bfloat16 bits of a number (round to nearest even; overflow to ±Infinity). */
export declare function toBFloat16Bits(value: number): number;
/** The number f16 bits stand for. */
export declare function fromFloat16Bits(bits: number): number;
/** The number bfloat16 bits stand for. */
export declare function fromBFloat16Bits(bits: number): number;
