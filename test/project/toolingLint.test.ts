/**
 * The tooling's plain JavaScript is linted for names used but never defined (issue #53): the
 * installer's `wanted` lost its import when the file was split, and only a first install, which
 * CI's warm cache never ran, found it. ESLint as `npm run lint` runs it (config looked up from
 * each file: scripts/eslint-tooling.mjs) must report such a name in every tooling folder. ESLint
 * runs in its own process: its config loader imports the configs, which jest's VM does not allow.
 */
import { spawnSync } from 'child_process';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');
const ESLINT = path.join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');
const SOURCE = "'use strict';\nconst marker = { ...wanted(), done: true };\nmodule.exports = { marker };\n";

interface LintMessage {
	ruleId: string | null;
	message: string;
}

/** ESLint's messages for a text linted as if it were the file at `file`. */
function lint(source: string, file: string): LintMessage[] {
	const ran = spawnSync(process.execPath, [ESLINT, '--format', 'json', '--stdin', '--stdin-filename', path.join(ROOT, file)], {
		cwd: ROOT,
		input: source,
		encoding: 'utf8',
		env: { ...process.env, ESLINT_FLAGS: 'unstable_config_lookup_from_file' },
	});
	const results = JSON.parse(ran.stdout) as Array<{ messages: LintMessage[] }>;
	return results[0].messages;
}

describe('the tooling lint finds undefined names', () => {
	it.each(['scripts/n8n-install/example.js', 'tooling/n8n/example.js', 'bench/example.cjs', 'test/jest/example.js', 'scripts/example.mjs'])(
		'%s: an undefined name is an error',
		(file) => {
			const source = file.endsWith('.mjs') ? SOURCE.replace("'use strict';\n", '').replace('module.exports = { marker };', 'export { marker };') : SOURCE;
			const messages = lint(source, file);
			expect(messages.map((m) => `${m.ruleId}: ${m.message}`)).toEqual(["no-undef: 'wanted' is not defined."]);
		},
	);

	it('the same file with the name imported is clean', () => {
		const source = SOURCE.replace("'use strict';\n", "'use strict';\nconst { wanted } = require('./versions');\n");
		expect(lint(source, 'scripts/n8n-install/example.js')).toEqual([]);
	});
});
