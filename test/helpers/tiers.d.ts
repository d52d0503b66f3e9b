export declare const gpu: {
    gpu: boolean;
    driver: boolean;
    reason: string;
};
export declare const describeGpu: jest.Describe;
/** For tests that need a driver but must hide the devices themselves. */
export declare const describeWithDriver: jest.Describe;
