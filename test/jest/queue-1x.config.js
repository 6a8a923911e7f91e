/**
 * `npm run test:queue:1x`: the queue-mode case only n8n 1.x has, its own re-run of a job whose
 * worker died (test/queue/stalled.queue.test.ts), on a cluster of the n8n 1.x release the compat
 * suites use (scripts/compat-packages.js; N8N_E2E_N8N_VERSION picks another). `npm test` runs it
 * beside the end-to-end suite (test/run-all.js).
 */
const { DEFAULT_N8N_VERSION } = require('../../scripts/compat-packages.js');

// Read by the install (scripts/n8n-install.js) and the test files; set here so every way in agrees.
process.env.N8N_E2E_N8N_VERSION = process.env.N8N_E2E_N8N_VERSION || DEFAULT_N8N_VERSION;

const queue = require('./queue.config');

/** @type {import('jest').Config} */
module.exports = {
	...queue,
	testMatch: ['<rootDir>/test/queue/stalled.queue.test.ts'],
	testPathIgnorePatterns: ['/node_modules/'],
};
