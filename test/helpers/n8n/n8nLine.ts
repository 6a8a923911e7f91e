/**
 * The n8n line whose packages the tests run against: 2.x from devDependencies (`npm test`), 1.x
 * under `npm run test:unit:compat` (test/jest/unit-compat.config.js maps n8n-workflow and n8n-core to n8n
 * 1.123's). Where the two lines behave differently, a test states what each one does.
 */
import * as fs from 'fs';
import * as path from 'path';

/** The major version of the package that `import 'name'` loads here. */
function loadedMajor(name: string): number {
	let dir = path.dirname(require.resolve(name));
	for (;;) {
		const file = path.join(dir, 'package.json');
		if (fs.existsSync(file)) {
			const found = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
			if (found.name === name) return Number(String(found.version).split('.')[0]);
		}
		const parent = path.dirname(dir);
		if (parent === dir) throw new Error(`No package.json of ${name} above ${require.resolve(name)}`);
		dir = parent;
	}
}

export const N8N_CORE_MAJOR = loadedMajor('n8n-core');

/**
 * n8n-core's own error for a required field left empty, before the node runs: 2.x names the
 * field; 1.x stops the run with its generic WorkflowHasIssuesError.
 */
export function requiredFieldError(displayName: string): RegExp {
	return N8N_CORE_MAJOR >= 2
		? new RegExp(`Parameter "${displayName}" is required`)
		: /The workflow has issues and cannot be executed/;
}

