#!/usr/bin/env node
/**
 * `npm run test:queue:proof`: issue #29's proof. The queue-mode suite's own files, in rounds, each
 * round once per configuration (test/queue/support/config.ts): `defaults` (n8n's own defaults,
 * the credential as a user creates it) and `recommended` (docs/self-hosting.md's checklist). The
 * burst is the issue's: 100 events × 3 copies, all 300 deliveries at once (WALLET_QUEUE_WAVE=100).
 *
 *   node scripts/queue-proof.js [--rounds N] [--configs defaults,recommended]
 *
 * Every `queue[<scenario>,<config>]` line goes to the output as the suite prints it; each run's
 * results to test/queue/results.<config>.<round>.json; at the end one line per run and a verdict:
 * the proof holds when every run of every configuration passed. Builds first (`npm run build`).
 * Each run takes about 12 minutes on 2 cores.
 */
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const { runNode } = require('./run-node');

const ROOT = path.resolve(__dirname, '..');
const JEST = require.resolve('jest/bin/jest', { paths: [ROOT] });

function option(name, fallback) {
	const at = process.argv.indexOf(`--${name}`);
	return at === -1 ? fallback : process.argv[at + 1];
}

const rounds = Number(option('rounds', '3'));
const configs = option('configs', 'defaults,recommended').split(',');
for (const config of configs) {
	if (config !== 'defaults' && config !== 'recommended') throw new Error(`Unknown configuration "${config}"`);
}

function run(config, round) {
	const results = path.join('test', 'queue', `results.${config}.${round}.json`);
	fs.rmSync(path.join(ROOT, results), { force: true });
	const started = Date.now();
	process.stdout.write(`\n=== round ${round}, ${config}\n`);
	const env = { ...process.env, WALLET_QUEUE_CONFIG: config, WALLET_QUEUE_E2E: '0', WALLET_QUEUE_WAVE: '100', WALLET_QUEUE_RESULTS: results };
	return runNode([JEST, '--config', 'test/jest/queue.config.js'], { cwd: ROOT, stdio: 'inherit', env }).then(({ code, signal }) => ({
		config,
		round,
		passed: code === 0,
		how: signal ?? code,
		seconds: Math.round((Date.now() - started) / 1000),
	}));
}

async function main() {
	const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
	if (build.status !== 0) process.exit(build.status ?? 1);
	const runs = [];
	for (let round = 1; round <= rounds; round++) {
		for (const config of configs) runs.push(await run(config, round));
	}
	process.stdout.write('\n');
	for (const r of runs) {
		process.stdout.write(`queue-proof[round ${r.round},${r.config}]: ${r.passed ? 'passed' : `failed (jest exited ${r.how})`} in ${r.seconds} s\n`);
	}
	const held = runs.every((r) => r.passed);
	process.stdout.write(`queue-proof: ${held ? 'holds' : 'does not hold'} (${runs.filter((r) => r.passed).length} of ${runs.length} runs passed)\n`);
	process.exitCode = held ? 0 : 1;
}

void main();
