/**
 * The unit and integration suite (`npm run test:unit`; `npm run test:unit -- <file>` for one file).
 * The jest configs of every suite are in this folder; each names the repository as its root.
 */
/** @type {import('jest').Config} */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '\\.e2e\\.test\\.ts$', '\\.queue\\.test\\.ts$', '\\.compat\\.test\\.ts$'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/test/jest/tsconfig.json' }],
	},
	setupFiles: ['<rootDir>/test/setup/quiet-logger.ts'],
	setupFilesAfterEnv: ['<rootDir>/test/setup/deduplication.ts'],
	reporters: ['default', '<rootDir>/test/reporters/summary-line.js'],
	testTimeout: 30000,
};
