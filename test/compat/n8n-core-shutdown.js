/**
 * For `npm run test:unit:compat` only (test/jest/unit-compat.config.js): after each test file, stops what
 * n8n-core 1.x leaves running. Its SSHClientsManager, created on every node run (ExecuteContext),
 * starts a 60-second setInterval that is not unref'd (n8n stops it at shutdown; n8n-core 2.x
 * unrefs it), so jest, which runs the files in its own process on a 2-core machine, would never
 * exit. The class is not exported from n8n-core's index, hence the file inside the 1.x package.
 */
/* global afterAll -- a jest setup file: jest's globals */
const fs = require('fs');
const path = require('path');

const { paths } = require('../../scripts/compat-packages.js');

afterAll(() => {
	const file = path.join(paths().modules, 'n8n-core', 'dist', 'execution-engine', 'ssh-clients-manager.js');
	if (!fs.existsSync(file)) return;
	const { Container } = require('@n8n/di');
	const { SSHClientsManager } = require(file);
	if (SSHClientsManager && Container.has(SSHClientsManager)) Container.get(SSHClientsManager).onShutdown();
});
