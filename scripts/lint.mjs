#!/usr/bin/env node
/**
 * `npm run lint`: n8n's own `n8n-node lint` (@n8n/node-cli), in strict mode.
 *
 * - nodes/, credentials/ and package.json are linted with n8n's default config: the root
 *   eslint.config.mjs is n8n's template, and strict mode (`"n8n": { "strict": true }`) makes the
 *   CLI fail when it differs.
 * - test/, scripts/, bench/ and tooling/ are not shipped code: each has an eslint.config.mjs with
 *   scoped overrides (scripts/eslint-tooling.mjs). ESLint uses them because this sets
 *   ESLINT_FLAGS=unstable_config_lookup_from_file (the config nearest to each file applies; the
 *   flag exists in the eslint 9.29.0 that the CLI pins).
 * - No other eslint.config.* is allowed: one under nodes/ or credentials/ would replace n8n's
 *   rules for shipped code.
 * - Zero warnings, like before the switch to the CLI (the CLI itself fails on errors only).
 *
 * Arguments go to `n8n-node lint` (e.g. `npm run lint -- --fix`).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ALLOWED_CONFIGS = new Set(['eslint.config.mjs', 'test/eslint.config.mjs', 'scripts/eslint.config.mjs', 'bench/eslint.config.mjs', 'tooling/eslint.config.mjs']);
const SKIP = new Set(['node_modules', 'dist', '.git']);

function eslintConfigs(dir = ROOT, found = []) {
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		if (SKIP.has(entry.name)) continue;
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) eslintConfigs(full, found);
		else if (/^eslint\.config\.[cm]?[jt]s$/.test(entry.name)) found.push(path.relative(ROOT, full).split(path.sep).join('/'));
	}
	return found;
}

const unexpected = eslintConfigs().filter((file) => !ALLOWED_CONFIGS.has(file));
if (unexpected.length > 0) {
	console.error(
		`lint: unexpected ESLint config file(s): ${unexpected.join(', ')}\n` +
			'Only the root eslint.config.mjs (n8n\'s default) and those of test/, scripts/, bench/ and tooling/ may exist: ' +
			'a config elsewhere would change the rules for code that ships.',
	);
	process.exit(1);
}

const bin = path.join(ROOT, 'node_modules', '@n8n', 'node-cli', 'bin', 'n8n-node.mjs');
const child = spawn(process.execPath, [bin, 'lint', ...process.argv.slice(2)], {
	cwd: ROOT,
	env: { ...process.env, ESLINT_FLAGS: 'unstable_config_lookup_from_file' },
	stdio: ['inherit', 'pipe', 'pipe'],
});
let output = '';
for (const [stream, target] of [
	[child.stdout, process.stdout],
	[child.stderr, process.stderr],
]) {
	stream.on('data', (chunk) => {
		output += chunk.toString();
		target.write(chunk);
	});
}
child.on('close', (code, signal) => {
	if (signal) process.kill(process.pid, signal);
	// ESLint's summary line: "✖ 3 problems (0 errors, 3 warnings)".
	// eslint-disable-next-line no-control-regex -- the colour codes of ESLint's output
	const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
	const summary = /(\d+) problems? \((\d+) errors?, (\d+) warnings?\)/.exec(plain);
	const warnings = summary ? Number(summary[3]) : 0;
	if (code === 0 && warnings > 0) {
		console.error(`lint: ${warnings} warning(s); none are allowed`);
		process.exit(1);
	}
	process.exit(code ?? 1);
});
