'use strict';
/*
 * Loads every node file that n8n's node packages list (their package.json's n8n.nodes), as n8n
 * does when it starts, and prints one JSON line: each package with its count and the files that
 * did not load. Run with n8n's Node in the install's host folder (steps.js, and the test
 * test/e2e/installedNodes.compat.test.ts). A missing module (a peer dependency npm left out)
 * shows here at once, instead of as a 500 in the editor when a user adds the node.
 */
const path = require('path');

const PACKAGES = ['n8n-nodes-base', '@n8n/n8n-nodes-langchain'];

function packageDir(name) {
	const n8n = path.dirname(require.resolve('n8n/package.json', { paths: [process.cwd()] }));
	try {
		return path.dirname(require.resolve(`${name}/package.json`, { paths: [n8n, process.cwd()] }));
	} catch {
		return undefined;
	}
}

const packages = [];
for (const name of PACKAGES) {
	const dir = packageDir(name);
	if (!dir) continue;
	const files = require(path.join(dir, 'package.json')).n8n.nodes;
	const failed = [];
	for (const file of files) {
		try {
			require(path.join(dir, file));
		} catch (error) {
			failed.push({ file, code: error.code, message: String(error.message).split('\n')[0] });
		}
	}
	packages.push({ name, total: files.length, failed });
}
process.stdout.write(`\n${JSON.stringify({ packages })}\n`);
// Some node files start timers or clients when loaded: leave without waiting for them.
process.exit(0);
