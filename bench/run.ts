/**
 * `npm run bench`: the performance figures of docs/performance.md, each the median
 * of at least 5 runs, printed as tables and written to bench/results.json. Targets are reported,
 * never enforced.
 *
 * In a real n8n (the e2e install: Node 24 + n8n 2.x from scripts/n8n-install.js, the packed
 * package installed the way n8n installs community packages), against sandboxes started in this
 * process, some with latency added to every answer (the sandbox's `latency` option), one over
 * HTTPS with a certificate made at run time:
 *
 * - 200 × Transaction → Get at 0 ms, 100 ms and 50–150 ms per answer: this node sequential (Items
 *   per Batch 1) and with its default batching, n8n's HTTP Request node with the same
 *   credential, and a raw client (its own process, on n8n's Node) sequential and with the node's
 *   default concurrency; Items per Batch 1, 5, 10, 20, 50 at 0 and 100 ms (the default's case).
 * - Return All of 1,000 and 10,000 beneficiaries (100 a page) at 0 and 100 ms against a raw page
 *   loop (and, at 0 ms, n8n's own transport doing the same loop), with request counts.
 * - 100 payouts at 100 ms, sent one after another (Items per Batch 1), in order.
 * - Connection cost: 200 sequential Gets over HTTP and over HTTPS (this node, the HTTP Request
 *   node, a raw client kept-alive and with a new connection per request, n8n's own transport with
 *   the node's request options and with `agentOptions: { keepAlive: true }`), and 30 over HTTPS
 *   through a link with a 20 ms round trip (bench/link.ts), with the connections each opened.
 * - Peak memory of Return All of 10,000 (one run), and the package: tarball size, runtime
 *   dependencies, cold `require` time of the node module.
 * - Payroll (results.json's `payroll` key): Payout → Initiate by saved beneficiary ID, the amount
 *   from each item, Duplicate Protection at its default, after a Code node making the N items, in
 *   a workflow with a fresh ID per run (the node's store starts empty), one `n8n execute` per run
 *   (so its peak memory is the run's). At 0 ms per answer N = 2,000, 15,000 and 50,000: this node
 *   at its default Batching against n8n's HTTP Request node POSTing the same bodies with the same
 *   credential and Batching → Items per Batch 10 (no interval: it then bounds nothing, the
 *   service's records say how many were in flight), ms per payout and peak RSS of `n8n execute`.
 *   At 100 ms, N = 2,000: this node at its default and one at a time (Items per Batch 1), the HTTP
 *   Request node as above and paced (10 per batch every 100 ms: about 10 in flight). Every
 *   credential says One Process Only ("n8n Runs As") but one: at 100 ms this node at its default
 *   also runs with the credential as a user creates it (no such field: every record a claim across
 *   processes, about 8 s of claim wait per run), reported beside it with the ratio of the medians
 *   (issue #29; roughly 2 minutes more). Fewer runs than the rest, to keep the part short: 3 runs
 *   for 2,000 (at 0 and 100 ms), 1 for 15,000 and 50,000 and for one at a time at 100 ms (about 4
 *   minutes alone); even so the part takes about 27 minutes on this 2-core machine (measured with
 *   other processes keeping half of it busy), 11 of them the two runs of 50,000. Every run is
 *   checked in the sandbox's own records (exactly N payouts, one per row, each with its row's
 *   amount, N requests; any other count stops the bench) and in n8n's database (one successful
 *   execution saved with its data, whose size is reported).
 *
 * Node times are n8n's own `executionTime` of the node. A workflow runs several measured nodes
 * one after another (one branch each, after unmeasured warm-up nodes on 20 items; the raw clients
 * warm up with 20 untimed requests), so one `n8n execute` (about 6 s of start-up) measures many
 * variants. Every measured node reads its own transaction (or its own sandbox), so the
 * sandboxes' request records (start, end, connection) say exactly what each one did: requests,
 * connections, most in flight at once, time spent by the service.
 * Before each execution and each round of raw clients the bench waits until other processes
 * leave the CPUs mostly idle (bench/quiet.ts), and reports how busy they were.
 *
 * Environment: BENCH_RUNS (default 5, at least 5), BENCH_TRIAL=1 (one run of everything, to try
 * the harness: not medians), BENCH_SKIP_N8N=1 (package and raw figures only), BENCH_ONLY=payroll
 * (the payroll part alone, about 27 minutes: results.json's other keys are kept as they are),
 * BENCH_SKIP_PAYROLL=1 (everything but the payroll part; results.json keeps the last payroll
 * figures), BENCH_PAYROLL_N (the payroll sizes at 0 ms, default 2000,15000,50000) and
 * BENCH_PAYROLL_SLOW_N (its size at 100 ms, default 2000), BENCH_QUIET
 * (busy share of the CPUs to wait below, default 0.25) and BENCH_QUIET_WAIT (longest wait, s,
 * default 120), BENCH_PROFILE=<folder> (a V8 CPU profile of every n8n process), and the e2e
 * install's N8N_E2E_* variables. The HTTPS rows need `openssl`; n8n and the raw clients trust
 * the certificate through NODE_EXTRA_CA_CERTS (no certificate check is turned off).
 *
 * This file is main; the parts: settings.ts (sizes, environment switches), figures.ts (figures and
 * the BenchState that main creates and passes down), package.ts, sandboxes.ts, raw.ts (raw
 * clients), n8n.ts, payroll.ts, summary.ts (figures and measurements from the runs), and
 * tables.js, the one place that formats them: the tables printed here and docs/performance.md's, from
 * what results.json holds.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { selfSignedCertificate, startSandbox, type SandboxOptions, type SelfSignedCertificate } from '../tooling/sandbox';
import { isPayroll, loadSummary, log, newBenchState, overThresholdNames, quiet, round, type BenchState, type Figure } from './figures';
import { startLink, type Link } from './link';
import { e2eAvailable, loadE2E } from './e2e';
import { n8nFigures, type N8nResults } from './n8n';
import { coldRequire, defaultItemsPerBatch, gitState, packageFigures } from './package';
import { payrollFigures } from './payroll';
import { rawIdle, rawRound } from './raw';
import { addBeneficiary, type Endpoint, type EndpointKey } from './sandboxes';
import { JITTER, LARGE, LINK_ONE_WAY_MS, RESULTS_FILE, ROOT, SETTLE_DELAY_MS, SLOW_MS, SMALL, settingsFromEnv } from './settings';
import { measurements, reportFigures } from './summary';
import { figureTables } from './tables';

/** The results.json there is (the sections a partial run keeps), or nothing. */
function previousResults(): Record<string, unknown> {
	try {
		return JSON.parse(fs.readFileSync(RESULTS_FILE, 'utf8')) as Record<string, unknown>;
	} catch {
		return {};
	}
}

function writeResults(results: Record<string, unknown>): void {
	fs.writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
}

/** BENCH_ONLY=payroll: the payroll part alone; the other sections of results.json are kept. */
async function payrollOnly(state: BenchState): Promise<void> {
	if (!e2eAvailable()) throw new Error('The payroll part needs the e2e install (scripts/n8n-install.js, tooling/n8n)');
	const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-bench-'));
	process.env.WALLET_E2E_RUN_DIR ??= workDir;
	let payroll: Record<string, unknown>;
	try {
		payroll = await payrollFigures(state, await loadE2E(), workDir, defaultItemsPerBatch());
	} finally {
		fs.rmSync(workDir, { recursive: true, force: true });
	}
	payroll.conditions = state.conditions;
	(payroll.environment as Record<string, unknown>).otherLoad = loadSummary(state.settings, state.conditions);
	process.stdout.write(figureTables(payroll.figures as Figure[], state.notes));
	writeResults({ ...previousResults(), payroll });
	process.stdout.write(`\nWritten to ${path.relative(process.cwd(), RESULTS_FILE)}: the payroll key (the other keys kept) (${round((Date.now() - state.started) / 1000, 0)} s)\n`);
}

async function main(): Promise<void> {
	const state = newBenchState(settingsFromEnv(process.env));
	const { settings, notes, conditions } = state;
	if (!fs.existsSync(path.join(ROOT, 'dist', 'nodes', 'WalletPayments', 'WalletPayments.node.js'))) {
		throw new Error('dist/ is missing: `npm run bench` builds it first (npm run build)');
	}
	if (settings.only !== undefined && settings.only !== 'payroll') throw new Error(`BENCH_ONLY=${settings.only}: the only part that runs alone is payroll`);
	if (settings.only === 'payroll') return await payrollOnly(state);
	const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-bench-'));
	process.env.WALLET_E2E_RUN_DIR ??= workDir;
	const defaultBatch = defaultItemsPerBatch();
	let certificate: SelfSignedCertificate | undefined;
	try {
		certificate = selfSignedCertificate(path.join(workDir, 'tls'));
	} catch (error) {
		notes.push(`No HTTPS rows: ${(error as Error).message}`);
	}
	const environment: Record<string, unknown> = {
		date: new Date().toISOString(),
		...gitState(),
		cpus: os.cpus().length,
		cpuModel: os.cpus()[0]?.model,
		memoryGb: round(os.totalmem() / 1024 ** 3, 1),
		runs: settings.runs,
		...(settings.trial ? { trial: true } : {}),
		defaultItemsPerBatch: defaultBatch,
		latencyMs: { slow: SLOW_MS, jitter: `${JITTER.fixedMs}–${JITTER.fixedMs + JITTER.jitterMs}` },
		https: certificate ? 'RSA 2048 self-signed certificate made with openssl at run time, trusted through NODE_EXTRA_CA_CERTS' : 'not measured (no openssl)',
	};
	if (settings.trial) notes.push('BENCH_TRIAL=1: one run of everything; these are not medians.');
	const closers: Array<() => Promise<void>> = [];
	let measured: Record<string, unknown> = {};
	let memory: Record<string, unknown> | undefined;
	let payroll: Record<string, unknown> | undefined;
	let link: Link | undefined;
	try {
		const endpoints: Partial<Record<EndpointKey, Endpoint>> = {};
		const make = async (key: EndpointKey, id: string, label: string, options: SandboxOptions, beneficiary = false) => {
			const sandbox = await startSandbox(options);
			closers.push(() => sandbox.close());
			const endpoint: Endpoint = { key, label, sandbox, url: sandbox.url, credential: { id, name: `Bench ${label}` }, ca: options.tls ? certificate?.certFile : undefined };
			if (beneficiary) {
				await addBeneficiary(endpoint);
			}
			endpoints[key] = endpoint;
			return endpoint;
		};
		await make('fast', 'BenchCredFast001', 'at 0 ms', { seed: { beneficiaries: LARGE } });
		await make('fast1k', 'BenchCredFast1k1', '1,000 at 0 ms', { seed: { beneficiaries: SMALL } });
		await make('slow', 'BenchCredSlow001', `at ${SLOW_MS} ms`, { seed: { beneficiaries: LARGE }, latency: { fixedMs: SLOW_MS } });
		await make('slow1k', 'BenchCredSlow1k1', `1,000 at ${SLOW_MS} ms`, { seed: { beneficiaries: SMALL }, latency: { fixedMs: SLOW_MS } });
		await make('jitter', 'BenchCredJitter1', `at ${JITTER.fixedMs}-${JITTER.fixedMs + JITTER.jitterMs} ms`, { latency: JITTER });
		// Payouts have their own sandbox: their saved beneficiary would be one more in the lists.
		await make('pay', 'BenchCredPayout1', `payouts at ${SLOW_MS} ms`, { latency: { fixedMs: SLOW_MS } }, true);
		await make('settle', 'BenchCredSettle1', `payouts at ${SLOW_MS} ms, settled after ${SETTLE_DELAY_MS / 1000} s`, { latency: { fixedMs: SLOW_MS }, settlement: { delayMs: SETTLE_DELAY_MS, rules: [] } }, true);
		if (certificate) {
			const tls = await make('tls', 'BenchCredHttps01', 'over HTTPS', { tls: { key: certificate.key, cert: certificate.cert } });
			link = await startLink({ host: '127.0.0.1', port: tls.sandbox.port }, LINK_ONE_WAY_MS);
			closers.unshift(link.close);
			// The same sandbox through the link: HTTPS end to end (the certificate names 127.0.0.1).
			endpoints.link = { ...tls, key: 'link', label: `over HTTPS, ${link.roundTripMs} ms round trip`, url: `https://127.0.0.1:${link.port}`, credential: { id: 'BenchCredLink001', name: `Bench over HTTPS, ${link.roundTripMs} ms round trip` } };
		}

		log(state, 'package figures');
		packageFigures(state);

		let nodeBin = process.execPath;
		let nodeLabel = `Node ${process.version}`;
		let n8n: N8nResults | undefined;
		if (settings.skipN8n) notes.push('BENCH_SKIP_N8N is set: the n8n figures were not measured.');
		else if (!e2eAvailable()) notes.push('The e2e install (scripts/n8n-install.js, tooling/n8n) is missing: the n8n figures were not measured.');
		if (!settings.skipN8n && e2eAvailable()) {
			log(state, `n8n figures: ${settings.runs} runs of each workflow, the raw clients after each (a cold n8n install takes about 4 minutes first)`);
			n8n = await n8nFigures(state, await loadE2E(), endpoints, certificate, defaultBatch, workDir);
			nodeBin = n8n.nodeBin;
			nodeLabel = `Node ${n8n.nodeVersion} (n8n’s)`;
			environment.n8n = n8n.n8nVersion;
		} else {
			for (let run = 0; run < settings.runs; run++) await rawRound(state, nodeBin, undefined, endpoints, defaultBatch, run);
		}
		environment.node = nodeLabel;
		const idle = await rawIdle(nodeBin);
		await quiet(state, 'cold require');
		log(state, 'cold require');
		coldRequire(state, nodeBin, nodeLabel);
		reportFigures(state, n8n, defaultBatch, idle, link);
		measured = measurements(state, n8n);
		if (n8n && settings.skipPayroll) notes.push('BENCH_SKIP_PAYROLL=1: the payroll figures were not measured (results.json keeps the last ones).');
		else if (n8n) {
			const before = conditions.length;
			payroll = await payrollFigures(state, await loadE2E(), workDir, defaultBatch);
			payroll.conditions = conditions.slice(before);
			(payroll.environment as Record<string, unknown>).otherLoad = loadSummary(settings, conditions.slice(before));
		}
		if (n8n) {
			memory = {
				returnAll10kKb: n8n.rss['memory.all'],
				oneRecordKb: n8n.rss['memory.one'],
			};
		}
	} finally {
		for (const close of closers) await close();
		fs.rmSync(workDir, { recursive: true, force: true });
	}
	environment.otherLoad = { ...loadSummary(settings, conditions), overThreshold: overThresholdNames(settings, conditions) };
	environment.benchSeconds = round((Date.now() - state.started) / 1000, 0);
	const measuredPayroll = payroll;
	payroll ??= previousResults().payroll as Record<string, unknown> | undefined;
	const results = { environment, figures: state.figures.filter((f) => !isPayroll(f)), notes, measurements: measured, memory, conditions, ...(payroll ? { payroll } : {}) };
	// The figures measured now (a kept payroll part's are in results.json, not printed again).
	process.stdout.write(figureTables([...results.figures, ...((measuredPayroll?.figures as Figure[] | undefined) ?? [])], results.notes));
	writeResults(results);
	process.stdout.write(`\nWritten to ${path.relative(process.cwd(), RESULTS_FILE)} (${environment.benchSeconds} s)\n`);
}

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
