export declare function collectGarbage(): void;
