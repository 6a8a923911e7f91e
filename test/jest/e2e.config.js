/**
 * The end-to-end suite: the packed package inside a real n8n 2.x (test/e2e/).
 * `npm run test:e2e`. The first run installs Node 24 and n8n into a cache outside the
 * repository (about 4 minutes, in globalSetup); later runs reuse it.
 */
/** @type {import('jest').Config} */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	// installedNodes.compat.test.ts runs on both lines (the compat suite's 1.x and here).
	testMatch: ['**/*.e2e.test.ts', '**/installedNodes.compat.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/test/jest/tsconfig.json' }],
	},
	globalSetup: '<rootDir>/test/e2e/support/globalSetup.ts',
	globalTeardown: '<rootDir>/test/e2e/support/globalTeardown.ts',
	// One n8n at a time: each is heavy, and the machines have 2 cores.
	maxWorkers: 1,
	// n8n's CLI takes 2–10 s per command; a file runs several.
	testTimeout: 300000,
	slowTestThreshold: 60,
};
