export declare function toolkitIncludes(): string[];
