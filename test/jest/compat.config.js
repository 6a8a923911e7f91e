/**
 * `npm run test:compat`: the end-to-end cases that matter on both n8n lines, in n8n 1.123.81 by
 * default (N8N_E2E_N8N_VERSION picks another; each version has its own install cache, see
 * scripts/n8n-install.js). The harness switches the steps that differ between 1.x and 2.x
 * (tooling/n8n/n8n.ts: `major`). `npm test` runs the files only this suite has
 * (`*.compat.test.ts`, test/run-all.js) and the examples' files (examples, controls with the
 * payroll example, provider check: about 1.5 minutes; the examples that need 2.x are printed as
 * left out); the others run there in the e2e
 * suite on 2.x, as CI's 45 minutes leave no room for both lines (docs/development.md).
 */
const e2e = require('./e2e.config');
const { DEFAULT_N8N_VERSION } = require('../../scripts/compat-packages.js');

// Read by the install (scripts/n8n-install.js) and the test files; set here so every way in agrees.
process.env.N8N_E2E_N8N_VERSION = process.env.N8N_E2E_N8N_VERSION || DEFAULT_N8N_VERSION;

/** @type {import('jest').Config} */
module.exports = {
	...e2e,
	// One line per case (✓ or ✕ and its name), besides the lines the files print themselves.
	verbose: true,
	testMatch: [
		// Every node file of n8n's loads in the installed n8n (peer dependencies included).
		'<rootDir>/test/e2e/installedNodes.compat.test.ts',
		// Every operation against the sandbox, and the credential test.
		'<rootDir>/test/e2e/operations.e2e.test.ts',
		'<rootDir>/test/e2e/editor.e2e.test.ts',
		// The trigger: signature, events, de-duplication (sequential, concurrent, after a restart).
		'<rootDir>/test/e2e/trigger.e2e.test.ts',
		'<rootDir>/test/e2e/triggerDedupe.e2e.test.ts',
		// A delivery whose run cannot start, then delivered again: exactly one run.
		'<rootDir>/test/e2e/triggerStart.compat.test.ts',
		// n8n 1.x on MariaDB: the trigger's records fit, a money-moving node refuses before it sends.
		'<rootDir>/test/e2e/mariadb.compat.test.ts',
		// n8n on PostgreSQL: the Pay node's records alone keep each payee paid once, across a restart.
		'<rootDir>/test/e2e/postgres.compat.test.ts',
		// Exactly once on Retry, Retry On Fail, repeated events and editor runs.
		'<rootDir>/test/e2e/exactlyOnce.e2e.test.ts',
		// The examples that run on 1.x; the ones that need n8n 2.x (tooling/demo/examples.ts:
		// NEEDS_N8N_2, the README's Compatibility section) are printed as left out. In `npm test` too.
		'<rootDir>/test/e2e/examples.e2e.test.ts',
		// Payment controls and payroll-with-approval.json. In `npm test` too.
		'<rootDir>/test/e2e/controls.e2e.test.ts',
		// provider-check.json against the sandbox: every endpoint, one turned off, a wrong key. In `npm test` too.
		'<rootDir>/test/e2e/providerCheck.e2e.test.ts',
	],
};
