// Four tiers (see README): unit runs anywhere; gpu needs a GPU and is skipped,
// with the reason printed, where there is none (REQUIRE_GPU=1 fails the run
// instead); multigpu needs two devices (REQUIRE_MULTI_GPU=1 fails the run
// without them); nodevice checks behaviour with the devices hidden, on a machine
// that has a driver. A fourth, package, packs and installs the package as its users
// do; `npm test` leaves it to `npm run test:package`.
const project = (name, extra = {}) => ({
  displayName: name,
  testMatch: [`<rootDir>/test/${name}/**/*.test.ts`],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }] },
  testEnvironment: '<rootDir>/test/helpers/environment.js',
  ...extra,
});

module.exports = {
  projects: [
    project('unit'),
    project('gpu', { setupFilesAfterEnv: ['<rootDir>/test/helpers/gpu-counters.ts'] }),
    project('multigpu', { setupFilesAfterEnv: ['<rootDir>/test/helpers/gpu-counters.ts'] }),
    project('nodevice'),
    project('package'),
  ],
  globalSetup: '<rootDir>/test/helpers/global-setup.js',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.js',
  testTimeout: 60000,
};
