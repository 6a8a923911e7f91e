#!/usr/bin/env node
/**
 * `npm run scan`: the checks of n8n's @n8n/scan-community-package, run here before n8n's review
 * runs them. Part of `npm test`; needs a built dist/ (`npm run build`).
 *
 * n8n's scanner (`npx @n8n/scan-community-package <name>`) first checks the npm provenance of the
 * published version, then lints two things with its own ESLint setup (its copy of
 * @n8n/eslint-plugin-community-nodes, eslint-plugin-n8n-nodes-base's sets, no-console; inline
 * eslint-disable comments ignored):
 *   - the source the provenance points at: package.json and nodes/, credentials/ (`.ts`, `.js`,
 *     `.json`);
 *   - the published tarball: every `.js` file and package.json.
 * This runs the same two lints through the scanner's own exported functions (`analyzePackage`,
 * `SOURCE_FILE_PATTERNS`), on this repository and on the tarball `npm pack` makes of it. Only the
 * provenance check is left to the release workflow (.github/workflows/publish.yml): it needs a
 * version published from GitHub Actions.
 *
 * Exit code 1 on any violation, with the scanner's report.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const scannerFile = require.resolve('@n8n/scan-community-package/scanner/scanner.mjs', { paths: [ROOT] });
// The scanner makes a temporary folder when it is loaded; have it removed when this exits.
createRequire(scannerFile)('tmp').setGracefulCleanup();
const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(pathToFileURL(scannerFile).href);
const scannerVersion = JSON.parse(
	fs.readFileSync(path.join(path.dirname(scannerFile), '..', 'package.json'), 'utf8'),
).version;

const npm = process.env.npm_execpath && /\.[cm]?js$/.test(process.env.npm_execpath)
	? { command: process.execPath, prefix: [process.env.npm_execpath] }
	: { command: process.platform === 'win32' ? 'npm.cmd' : 'npm', prefix: [] };

function run(command, args, options) {
	const result = spawnSync(command, args, { encoding: 'utf8', shell: command.endsWith('.cmd'), ...options });
	if (result.status !== 0) {
		throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
	}
	return result.stdout;
}

if (!fs.existsSync(path.join(ROOT, 'dist', 'nodes'))) {
	console.error('scan: dist/ is missing; run `npm run build` first');
	process.exit(1);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-scan-'));
let failed = false;
try {
	const packed = run(npm.command, [...npm.prefix, 'pack', '--silent', '--ignore-scripts', '--pack-destination', work], {
		cwd: ROOT,
	});
	const tarball = path.join(work, packed.trim().split('\n').pop().trim());
	const unpacked = path.join(work, 'package');
	fs.mkdirSync(unpacked);
	// As the scanner unpacks a downloaded package.
	run('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1'], { cwd: work });

	const legs = [
		{ name: `source (${SOURCE_FILE_PATTERNS.join(', ')})`, dir: ROOT, patterns: SOURCE_FILE_PATTERNS },
		{ name: `tarball ${path.basename(tarball)} (**/*.js, package.json)`, dir: unpacked, patterns: ['**/*.js', 'package.json'] },
	];
	for (const leg of legs) {
		const started = Date.now();
		const result = await analyzePackage(leg.dir, leg.patterns);
		const seconds = ((Date.now() - started) / 1000).toFixed(1);
		if (result.passed) {
			console.log(`scan: ${leg.name}: passed (${seconds} s)`);
		} else {
			failed = true;
			console.log(`scan: ${leg.name}: FAILED: ${result.message}`);
			if (result.details) console.log(result.details);
		}
	}
} finally {
	fs.rmSync(work, { recursive: true, force: true });
}
console.log(
	failed
		? `scan: n8n's community package scanner (${scannerVersion}) found violations`
		: `scan: n8n's community package scanner (${scannerVersion}) rules: 0 violations (provenance is checked on the published version)`,
);
process.exit(failed ? 1 : 0);
