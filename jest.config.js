/**
 * One jest run covers every folder. Integration tests share one real FerretDB (or MONGODB_URI) and
 * one real Redis started by the global setup; each test file picks its own database name / key
 * prefix so files never see each other's data.
 */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: '<rootDir>/scripts/test-support/node-realm-environment.js',
  roots: [
    '<rootDir>/api',
    '<rootDir>/inference',
    '<rootDir>/hosted',
    '<rootDir>/benchmarks',
    '<rootDir>/scripts',
    '<rootDir>/k8s',
    '<rootDir>/sdk',
  ],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.(t|j)sx?$': ['@swc/jest'] },
  globalSetup: '<rootDir>/scripts/test-support/global-setup.ts',
  globalTeardown: '<rootDir>/scripts/test-support/global-teardown.ts',
  testTimeout: 60000,
  // mrz ships ESM only; Node 20's jest cannot require() it, so swc compiles it like our own code.
  transformIgnorePatterns: ['/node_modules/(?!mrz/)'],
  modulePathIgnorePatterns: ['<rootDir>/.state/', '<rootDir>/dist/', '<rootDir>/sdk/ios/.build/'],
};
