/**
 * The queue-mode suite (test/queue/): n8n 2.41.1 in queue mode (a main, two workers, two webhook
 * processors) on PostgreSQL and Redis, all started by globalSetup and the test files. `npm run
 * test:queue`. It runs its own files (*.queue.test.ts) and two e2e files unchanged on that
 * cluster (test/e2e/support/e2e.ts makes a queue-mode n8n when WALLET_QUEUE_MODE is set); `npm
 * test` leaves those two out (WALLET_QUEUE_E2E=0).
 */
/** @type {import('jest').Config} */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e', '<rootDir>/test/queue'],
	// WALLET_QUEUE_E2E=0 (npm test, for CI's 45 minutes): the suite's own files only; the two e2e
	// files on the cluster run with `npm run test:queue`.
	testMatch: [
		...(process.env.WALLET_QUEUE_E2E === '0' ? [] : ['<rootDir>/test/e2e/operations.e2e.test.ts', '<rootDir>/test/e2e/examples.e2e.test.ts']),
		'<rootDir>/test/queue/**/*.queue.test.ts',
	],
	// n8n's re-run of a stalled job exists on 1.x only (2.x sets Bull's maxStalledCount to 0):
	// queue-1x.config.js runs that file.
	testPathIgnorePatterns: ['/node_modules/', 'stalled\\.queue\\.test\\.ts$'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/test/jest/tsconfig.json' }],
	},
	globalSetup: '<rootDir>/test/queue/support/globalSetup.ts',
	globalTeardown: '<rootDir>/test/queue/support/globalTeardown.ts',
	// One cluster at a time (five n8n processes each), on 2 cores.
	maxWorkers: 1,
	testTimeout: 600000,
	slowTestThreshold: 120,
};
