/**
 * The test part of `npm test` (after build, lint and typecheck): the unit and integration suites
 * (test/jest/unit.config.js), the type-check against n8n 1.123's packages, then the files only the compat
 * suite has and the examples' files, in n8n 1.123 (test/jest/compat.config.js), beside the end-to-end
 * suite inside a real n8n 2.x (test/jest/e2e.config.js); then the queue-mode suite
 * (test/jest/queue.config.js: n8n with workers on PostgreSQL and Redis) alone, as its kills and
 * outages are timed against a machine that does nothing else. All run even when one
 * fails; the end-to-end and queue output streams through, the unit output is printed once that
 * suite is done (so the two never interleave), and the last line is one plain total of all, in
 * the form of test/reporters/summary-line.js:
 *
 *   jest: N passed, N failed[, N skipped]
 *
 * Exits non-zero when any run fails. Extra arguments go to every jest run.
 */
const fs = require('fs');
const os = require('os');
const path = require('path');

const { runNode } = require('../scripts/run-node');

const ROOT = path.resolve(__dirname, '..');
const JEST = require.resolve('jest/bin/jest', { paths: [ROOT] });

/**
 * Groups run one after the other; the lanes of a group at the same time, the runs of a lane one
 * after the other. The unit suite is a single jest worker of plain Node, and the compat files
 * start one n8n at a time: beside the end-to-end suite (the longest lane) they cost CI little.
 */
/** The compat lane's files in n8n 1.123: the `*.compat.test.ts` files and the examples' own. */
const EXAMPLE_FILES_AND_COMPAT = '(compat\\.test|examples\\.e2e\\.test|controls\\.e2e\\.test|providerCheck\\.e2e\\.test)\\.ts$';

const GROUPS = [
	[
		[
			// The per-run summary line is left out (default reporter only): the total below replaces it.
			{ name: 'unit + integration', args: ['--config', 'test/jest/unit.config.js', '--reporters=default'], buffered: true },
			// The type-check against n8n 1.123's n8n-workflow and n8n-core (`npm run typecheck:compat`).
			{ name: 'type-check (n8n 1.x packages)', script: 'scripts/compat/typecheck.js', buffered: true },
			// n8n 1.123 (issue #32): the files only the compat suite has (the trigger's answer, MariaDB,
			// PostgreSQL), and the examples' files (issue #63: every example that runs on 1.x, the ones
			// that need 2.x printed as left out; examples, controls with the payroll example, provider
			// check: about 1.5 minutes). Its other files are e2e files, run on 2.x beside it (`npm run
			// test:compat` runs them all on 1.x).
			{
				name: 'compat (n8n 1.123)',
				args: ['--config', 'test/jest/compat.config.js', '--reporters=default', '--testPathPatterns', EXAMPLE_FILES_AND_COMPAT],
				buffered: true,
			},
			// n8n 1.123 in queue mode (issue #29, point 4): its own re-run of a job whose worker died
			// (`npm run test:queue:1x`; 2.x never re-runs one). About 5 minutes, mostly waits: n8n's lock,
			// then the node's takeover wait.
			{
				name: 'queue mode, n8n 1.123 (stalled job re-run)',
				args: ['--config', 'test/jest/queue-1x.config.js', '--reporters=default'],
				buffered: true,
			},
		],
		[{ name: 'end-to-end (n8n)', args: ['--config', 'test/jest/e2e.config.js'] }],
	],
	// n8n in queue mode (main, 2 workers, 2 webhook processors) on PostgreSQL and Redis: test/queue.
	// Its own files only: the e2e files it can also run on the cluster are left to `npm run test:queue`
	// (they take 6–7 minutes of CI's 45; every operation and example runs in the end-to-end suite).
	[[{ name: 'queue mode (n8n, PostgreSQL, Redis)', args: ['--config', 'test/jest/queue.config.js'], env: { WALLET_QUEUE_E2E: '0' } }]],
];

function runStep(run, extra) {
	const outputFile = path.join(os.tmpdir(), `wallet-jest-${process.pid}-${run.name.replace(/\W+/g, '-')}-${Date.now()}.json`);
	// A plain Node script (run.script) takes no jest arguments and gives no test counts.
	const argv = run.script ? [run.script] : [JEST, ...run.args, '--json', `--outputFile=${outputFile}`, ...extra];
	const header = `\n=== ${run.name}: ${run.script ? `node ${run.script}` : `jest ${[...run.args, ...extra].join(' ')}`}\n\n`;
	const started = Date.now();
	if (!run.buffered) process.stdout.write(header);
	const chunks = [];
	const collect = (child) => {
		child.stdout.on('data', (chunk) => chunks.push(chunk));
		child.stderr.on('data', (chunk) => chunks.push(chunk));
	};
	const options = { cwd: ROOT, env: { ...process.env, ...run.env }, stdio: run.buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit' };
	return runNode(argv, options, run.buffered ? collect : undefined).then(({ code, signal }) => {
		if (run.buffered) process.stdout.write(`${header}${Buffer.concat(chunks).toString()}\n=== ${run.name}: done in ${Math.round((Date.now() - started) / 1000)} s\n`);
		let results;
		try {
			results = JSON.parse(fs.readFileSync(outputFile, 'utf8'));
		} catch {
			results = undefined;
		}
		fs.rmSync(outputFile, { force: true });
		return { run, code: code ?? 1, signal, results };
	});
}

async function main() {
	const extra = process.argv.slice(2);
	let passed = 0;
	let failed = 0;
	let skipped = 0;
	const problems = [];
	const finished = [];
	const runLane = async (lane) => {
		const results = [];
		for (const run of lane) results.push(await runStep(run, extra));
		return results;
	};
	for (const group of GROUPS) finished.push(...(await Promise.all(group.map(runLane))).flat());
	for (const { run, code, signal, results } of finished) {
		if (run.script) {
			if (code !== 0) {
				failed += 1;
				problems.push(`${run.name}: exited ${signal ?? code} (see above)`);
			}
		} else if (results) {
			passed += results.numPassedTests;
			const runFailed = results.numFailedTests + results.numRuntimeErrorTestSuites;
			failed += runFailed;
			skipped += results.numPendingTests + results.numTodoTests;
			if (code !== 0 && runFailed === 0) {
				// e.g. the e2e globalTeardown found a process left running
				failed += 1;
				problems.push(`${run.name}: jest exited ${signal ?? code} after its tests passed (see above)`);
			}
		} else {
			failed += 1;
			problems.push(`${run.name}: jest exited ${signal ?? code} without results (see above)`);
		}
	}
	for (const problem of problems) process.stdout.write(`\n${problem}`);
	process.stdout.write(`\njest: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
	process.exitCode = failed > 0 ? 1 : 0;
}

void main();
