/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '\\.e2e\\.test\\.ts$', '\\.queue\\.test\\.ts$', '\\.compat\\.test\\.ts$'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }],
	},
	setupFiles: ['<rootDir>/test/setup/quiet-logger.ts'],
	setupFilesAfterEnv: ['<rootDir>/test/setup/deduplication.ts'],
	reporters: ['default', '<rootDir>/test/reporters/summary-line.js'],
	testTimeout: 30000,
};
