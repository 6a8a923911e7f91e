/**
 * `npm run bench`: the performance figures of issue 6, each the median of at least 5 runs,
 * printed as a table and written to bench/results.json. Targets are reported, never enforced.
 *
 * - In a real n8n (the e2e install: Node 24 + n8n 2.x from scripts/n8n-install.js, the packed
 *   package installed the way n8n installs community packages), against the sandbox started in
 *   this process:
 *   - 1,000 items through Transaction → Get with this node, the same calls through n8n's HTTP
 *     Request node with this credential, and a raw keep-alive HTTP loop (its own process, on
 *     n8n's Node): node times are n8n's own `executionTime` of the node;
 *   - Return All of 10,000 beneficiaries (100 pages) against a raw page loop: time and peak
 *     memory (resident set of the process, above the same process doing a one-record run).
 * - Package: tarball size, runtime dependency count, cold `require` time of the node module.
 *
 * Environment: BENCH_RUNS (default 5, at least 5), BENCH_SKIP_N8N=1 (package and raw figures
 * only), BENCH_PROFILE=<folder> (a V8 CPU profile of every n8n process, for Chrome DevTools or
 * speedscope), and the e2e install's N8N_E2E_* variables.
 */
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { startSandbox, type Sandbox } from '../test/sandbox';

const ROOT = path.resolve(__dirname, '..');
const RUNS = Math.max(5, Number(process.env.BENCH_RUNS ?? 5) || 5);
const GET_ITEMS = 1000;
const BENEFICIARIES = 10_000;
const RESULTS_FILE = path.join(ROOT, 'bench', 'results.json');

interface Target {
	/** The figure must be at most this. */
	max: number;
	text: string;
}

interface Figure {
	name: string;
	value: number | null;
	unit: string;
	/** Every run's value (the figure is their median). */
	runs?: number[];
	target?: Target;
	met?: boolean;
	note?: string;
}

const figures: Figure[] = [];
const notes: string[] = [];

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function round(value: number, digits = 2): number {
	const factor = 10 ** digits;
	return Math.round(value * factor) / factor;
}

function record(figure: Figure): Figure {
	if (figure.target && figure.value !== null) figure.met = figure.value <= figure.target.max;
	figures.push(figure);
	return figure;
}

function log(message: string): void {
	process.stderr.write(`[bench] ${message}\n`);
}

// ---------------------------------------------------------------- package

function packageFigures(): void {
	const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
	if (pack.status !== 0) throw new Error(`npm pack --dry-run failed:\n${pack.stderr}`);
	const [info] = JSON.parse(pack.stdout) as Array<{ size: number; unpackedSize: number; entryCount: number }>;
	record({
		name: 'Package tarball size',
		value: round(info.size / 1024, 1),
		unit: 'KB',
		target: { max: 100, text: '≤ 100 KB' },
		note: `${info.entryCount} files, ${round(info.unpackedSize / 1024, 1)} KB unpacked`,
	});
	const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
		dependencies?: Record<string, string>;
		bundleDependencies?: string[];
		bundledDependencies?: string[];
		peerDependencies?: Record<string, string>;
	};
	const runtime = [
		...Object.keys(manifest.dependencies ?? {}),
		...(manifest.bundleDependencies ?? manifest.bundledDependencies ?? []),
	];
	record({
		name: 'Runtime dependencies',
		value: runtime.length,
		unit: '',
		target: { max: 0, text: '0' },
		note: `${runtime.join(', ') || 'none'}; peer: ${Object.keys(manifest.peerDependencies ?? {}).join(', ') || 'none'} (n8n’s own)`,
	});
}

/**
 * A fresh Node process per run: n8n-workflow is loaded first (n8n has it loaded before it loads
 * any community node), then the clock runs around `require` of the built node module.
 */
function coldRequire(nodeBin: string, nodeLabel: string): void {
	const script = `
		require('n8n-workflow');
		const start = process.hrtime.bigint();
		require(${JSON.stringify(path.join(ROOT, 'dist', 'nodes', 'WalletPayments', 'WalletPayments.node.js'))});
		const node = Number(process.hrtime.bigint() - start) / 1e6;
		const start2 = process.hrtime.bigint();
		require(${JSON.stringify(path.join(ROOT, 'dist', 'nodes', 'WalletPaymentsTrigger', 'WalletPaymentsTrigger.node.js'))});
		require(${JSON.stringify(path.join(ROOT, 'dist', 'credentials', 'WalletPaymentsApi.credentials.js'))});
		const rest = Number(process.hrtime.bigint() - start2) / 1e6;
		process.stdout.write(JSON.stringify({ node, rest }));
	`;
	const runs: number[] = [];
	const rest: number[] = [];
	const count = Math.max(RUNS, 9);
	for (let i = 0; i < count; i++) {
		const result = spawnSync(nodeBin, ['-e', script], { cwd: ROOT, encoding: 'utf8' });
		if (result.status !== 0) throw new Error(`cold require failed:\n${result.stderr}`);
		const parsed = JSON.parse(result.stdout) as { node: number; rest: number };
		runs.push(round(parsed.node));
		rest.push(parsed.rest);
	}
	record({
		name: 'Cold require of WalletPayments.node.js',
		value: round(median(runs)),
		unit: 'ms',
		runs,
		target: { max: 20, text: '≤ 20 ms' },
		note: `${nodeLabel}, n8n-workflow already loaded; the trigger and the credential add ${round(median(rest))} ms`,
	});
}

// ---------------------------------------------------------------- raw loops

interface RawResult {
	ms: number;
	requests: number;
	records: number;
	maxRssKb: number;
}

/** Runs the raw client in its own process (asynchronously: the sandbox serves from this one). */
async function raw(nodeBin: string, args: string[]): Promise<RawResult> {
	const child = spawn(nodeBin, [path.join(ROOT, 'bench', 'raw-client.js'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const code = await new Promise<number | null>((resolve, reject) => {
		child.once('error', reject);
		child.once('close', resolve);
	});
	if (code !== 0) throw new Error(`raw client ${args[0]} exited ${code}:\n${stderr}`);
	return JSON.parse(stdout.trim().split('\n').pop()!) as RawResult;
}

async function api(sandbox: Sandbox, method: string, pathname: string, body?: unknown): Promise<Record<string, unknown>> {
	const response = await fetch(`${sandbox.url}${pathname}`, {
		method,
		headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const json = (await response.json()) as { status: boolean; data: Record<string, unknown> };
	if (!response.ok || json.status !== true) throw new Error(`${method} ${pathname}: ${response.status} ${JSON.stringify(json)}`);
	return json.data;
}

async function aTransaction(sandbox: Sandbox): Promise<string> {
	const payout = await api(sandbox, 'POST', '/api/v2/wallets/payout/initialize', {
		amount: 500,
		sourceWalletCurrency: 'USD',
		customerEmail: 'bench@example.com',
		description: 'benchmark',
		beneficiary: {
			country: 'KE',
			currency: 'KES',
			destination: { type: 'MOBILEMONEY', network: 'MPESA', accountName: 'Bench', accountNumber: '254712345678' },
		},
	});
	return payout.id as string;
}

interface RawFigures {
	get: number[];
	fresh: number[];
	pages: number[];
	pagesRssKb: number[];
}

async function rawFigures(nodeBin: string, sandbox: Sandbox, transactionId: string): Promise<RawFigures> {
	const out: RawFigures = { get: [], fresh: [], pages: [], pagesRssKb: [] };
	const idles: number[] = [];
	for (let run = 0; run < 3; run++) idles.push((await raw(nodeBin, ['idle'])).maxRssKb);
	const idle = median(idles);
	for (let run = 0; run < RUNS; run++) {
		const get = await raw(nodeBin, ['get', sandbox.url, sandbox.apiKey, transactionId, String(GET_ITEMS)]);
		if (get.requests !== GET_ITEMS) throw new Error(`raw get made ${get.requests} requests`);
		out.get.push(round(get.ms, 1));
		out.fresh.push(round((await raw(nodeBin, ['fresh', sandbox.url, sandbox.apiKey, transactionId, String(GET_ITEMS)])).ms, 1));
		const pages = await raw(nodeBin, ['pages', sandbox.url, sandbox.apiKey]);
		if (pages.records !== BENEFICIARIES) throw new Error(`raw page loop read ${pages.records} records`);
		out.pages.push(round(pages.ms, 1));
		out.pagesRssKb.push(pages.maxRssKb - idle);
		sandbox.clearRequests();
	}
	return out;
}

// ---------------------------------------------------------------- n8n

type E2E = {
	install: typeof import('../test/e2e/support/install');
	n8n: typeof import('../test/e2e/support/n8n');
	workflow: typeof import('../test/e2e/support/workflow');
};

function e2eAvailable(): boolean {
	return (
		fs.existsSync(path.join(ROOT, 'scripts', 'n8n-install.js')) &&
		fs.existsSync(path.join(ROOT, 'test', 'e2e', 'support', 'n8n.ts')) &&
		fs.existsSync(path.join(ROOT, 'test', 'e2e', 'support', 'workflow.ts'))
	);
}

async function loadE2E(): Promise<E2E> {
	return {
		install: await import('../test/e2e/support/install'),
		n8n: await import('../test/e2e/support/n8n'),
		workflow: await import('../test/e2e/support/workflow'),
	};
}

interface N8nRun {
	/** n8n's executionTime of the node, ms. */
	ms: number;
	items: number;
	/** Peak resident memory of the `n8n execute` process, KB. */
	maxRssKb?: number;
}

async function n8nFigures(e2e: E2E, sandbox: Sandbox, transactionId: string, workDir: string): Promise<{ nodeBin: string; nodeVersion: string; n8nVersion: string; runs: Record<string, N8nRun[]> }> {
	const installed = await e2e.install.ensureInstalled();
	const tarball = e2e.n8n.packPackage(path.join(workDir, 'pack'));
	const rssDir = path.join(workDir, 'maxrss');
	fs.mkdirSync(rssDir, { recursive: true });
	const n8n = await e2e.n8n.N8n.create({
		parentDir: workDir,
		tarball,
		env: {
			NODE_OPTIONS: [
				`--require ${path.join(ROOT, 'bench', 'maxrss.js')}`,
				...(process.env.BENCH_PROFILE ? [`--cpu-prof --cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE)}`] : []),
			].join(' '),
			BENCH_MAXRSS_DIR: rssDir,
		},
	});
	try {
		await n8n.importWalletCredential({ apiKey: sandbox.apiKey, baseUrl: sandbox.url });
		const { chain, manualTrigger, node, walletNode } = e2e.workflow;
		const items = () =>
			node('Items', 'n8n-nodes-base.code', 2, {
				jsCode: `return Array.from({ length: ${GET_ITEMS} }, () => ({ json: { id: ${JSON.stringify(transactionId)} } }));`,
			});
		const credentials = { walletPaymentsApi: { id: e2e.n8n.CREDENTIAL_ID, name: e2e.n8n.CREDENTIAL_NAME } };
		const workflows = {
			node: chain('BenchGetWallet01', 'Bench: Transaction Get (node)', [
				manualTrigger(),
				items(),
				walletNode('Measured', 'transaction', 'get', { transactionId: '={{ $json.id }}', simplify: false }),
			]),
			// The same without an expression: what n8n's expression evaluation costs per item.
			nodeFixed: chain('BenchGetFixed001', 'Bench: Transaction Get (node, fixed ID)', [
				manualTrigger(),
				items(),
				walletNode('Measured', 'transaction', 'get', { transactionId, simplify: false }),
			]),
			http: chain('BenchGetHttpReq1', 'Bench: Transaction Get (HTTP Request)', [
				manualTrigger(),
				items(),
				node(
					'Measured',
					'n8n-nodes-base.httpRequest',
					4.5,
					{
						method: 'GET',
						url: `={{ ${JSON.stringify(`${sandbox.url}/api/v2/transactions/`)} + $json.id }}`,
						authentication: 'predefinedCredentialType',
						nodeCredentialType: 'walletPaymentsApi',
						options: {},
					},
					{ credentials },
				),
			]),
			returnAll: chain('BenchReturnAll01', 'Bench: Return All beneficiaries', [
				manualTrigger(),
				walletNode('Measured', 'beneficiary', 'getAll', { returnAll: true, simplify: false }),
			]),
			oneRecord: chain('BenchOneRecord01', 'Bench: one beneficiary (memory baseline)', [
				manualTrigger(),
				walletNode('Measured', 'beneficiary', 'getAll', { returnAll: false, limit: 1, simplify: false }),
			]),
		};
		await n8n.importWorkflows(Object.values(workflows));

		const execute = async (workflowId: string, expectedItems: number): Promise<N8nRun> => {
			for (const file of fs.readdirSync(rssDir)) fs.rmSync(path.join(rssDir, file));
			const result = await n8n.executeOk(workflowId);
			const run = result.data.resultData.runData.Measured?.[0] as { executionTime?: number } | undefined;
			const output = e2e.n8n.nodeOutput(result, 'Measured');
			if (output.length !== expectedItems) throw new Error(`${workflowId}: ${output.length} items, expected ${expectedItems}`);
			if (output.some((json) => json.error !== undefined)) throw new Error(`${workflowId}: an item failed`);
			const rss = fs
				.readdirSync(rssDir)
				.map((file) => JSON.parse(fs.readFileSync(path.join(rssDir, file), 'utf8')) as { argv: string[]; maxRssKb: number })
				.find((entry) => entry.argv.includes('execute') && entry.argv[0] === n8n.install.n8nBin);
			sandbox.clearRequests();
			return { ms: run?.executionTime ?? NaN, items: output.length, maxRssKb: rss?.maxRssKb };
		};

		const runs: Record<string, N8nRun[]> = { node: [], nodeFixed: [], http: [], returnAll: [], oneRecord: [] };
		// One warm-up execution of each (first use of a folder, compile caches), then the runs,
		// interleaved so that drift on the machine touches every variant alike.
		await execute(workflows.node.id, GET_ITEMS);
		await execute(workflows.http.id, GET_ITEMS);
		await execute(workflows.returnAll.id, BENEFICIARIES);
		for (let run = 0; run < RUNS; run++) {
			log(`n8n run ${run + 1}/${RUNS}`);
			runs.node.push(await execute(workflows.node.id, GET_ITEMS));
			runs.nodeFixed.push(await execute(workflows.nodeFixed.id, GET_ITEMS));
			runs.http.push(await execute(workflows.http.id, GET_ITEMS));
			runs.returnAll.push(await execute(workflows.returnAll.id, BENEFICIARIES));
			runs.oneRecord.push(await execute(workflows.oneRecord.id, 1));
		}
		const nodeVersion = spawnSync(installed.nodeBin, ['--version'], { encoding: 'utf8' }).stdout.trim();
		return { nodeBin: installed.nodeBin, nodeVersion, n8nVersion: e2e.install.N8N_VERSION, runs };
	} finally {
		await n8n.dispose();
	}
}

// ---------------------------------------------------------------- report

function printTable(): void {
	const rows = figures.map((figure) => [
		figure.name,
		figure.value === null ? 'n/a' : `${figure.value}${figure.unit ? ` ${figure.unit}` : ''}`,
		figure.target ? figure.target.text : '',
		figure.target ? (figure.value === null ? '?' : figure.met ? 'met' : 'MISSED') : '',
		figure.note ?? '',
	]);
	const header = ['Figure', 'Median', 'Target', '', 'Notes'];
	const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
	const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd();
	process.stdout.write(`\n${line(header)}\n${widths.map((width) => '-'.repeat(width)).join('  ')}\n`);
	for (const row of rows) process.stdout.write(`${line(row)}\n`);
	for (const note of notes) process.stdout.write(`\nNote: ${note}\n`);
}

async function main(): Promise<void> {
	if (!fs.existsSync(path.join(ROOT, 'dist', 'nodes', 'WalletPayments', 'WalletPayments.node.js'))) {
		throw new Error('dist/ is missing: `npm run bench` builds it first (npm run build)');
	}
	const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-bench-'));
	process.env.WALLET_E2E_RUN_DIR ??= workDir;
	const sandbox = await startSandbox({ seed: { beneficiaries: BENEFICIARIES } });
	const environment: Record<string, unknown> = {
		date: new Date().toISOString(),
		cpus: os.cpus().length,
		cpuModel: os.cpus()[0]?.model,
		memoryGb: round(os.totalmem() / 1024 ** 3, 1),
		runs: RUNS,
	};
	try {
		log('package figures');
		packageFigures();

		const transactionId = await aTransaction(sandbox);
		sandbox.clearRequests();

		let nodeBin = process.execPath;
		let nodeLabel = `Node ${process.version}`;
		let n8n: Awaited<ReturnType<typeof n8nFigures>> | undefined;
		if (process.env.BENCH_SKIP_N8N) {
			notes.push('BENCH_SKIP_N8N is set: the n8n figures were not measured.');
		} else if (!e2eAvailable()) {
			notes.push('The e2e install (scripts/n8n-install.js, test/e2e/support) is missing: the n8n figures were not measured.');
		} else {
			log(`n8n figures (${RUNS} runs of each workflow; a cold n8n install takes about 4 minutes first)`);
			n8n = await n8nFigures(await loadE2E(), sandbox, transactionId, workDir);
			nodeBin = n8n.nodeBin;
			nodeLabel = `Node ${n8n.nodeVersion} (n8n’s)`;
			environment.n8n = n8n.n8nVersion;
		}
		environment.node = nodeLabel;

		log('cold require');
		coldRequire(nodeBin, nodeLabel);

		log(`raw loops (${RUNS} runs, ${nodeLabel})`);
		const rawRuns = await rawFigures(nodeBin, sandbox, transactionId);
		const rawGet = median(rawRuns.get);
		const rawPages = median(rawRuns.pages);
		const rawRss = median(rawRuns.pagesRssKb);

		if (n8n) {
			const nodeGet = median(n8n.runs.node.map((run) => run.ms));
			const httpGet = median(n8n.runs.http.map((run) => run.ms));
			const all = median(n8n.runs.returnAll.map((run) => run.ms));
			const rssOf = (runs: N8nRun[]) => runs.map((run) => run.maxRssKb).filter((kb): kb is number => kb !== undefined);
			const allRss = rssOf(n8n.runs.returnAll);
			const baseRss = rssOf(n8n.runs.oneRecord);
			record({ name: `Transaction Get × ${GET_ITEMS}: this node`, value: round(nodeGet, 0), unit: 'ms', runs: n8n.runs.node.map((run) => run.ms), note: 'n8n’s executionTime of the node' });
			record({ name: `Transaction Get × ${GET_ITEMS}: HTTP Request node`, value: round(httpGet, 0), unit: 'ms', runs: n8n.runs.http.map((run) => run.ms), note: 'same credential; n8n sends its items’ requests concurrently' });
			record({ name: `Transaction Get × ${GET_ITEMS}: raw keep-alive loop`, value: round(rawGet, 0), unit: 'ms', runs: rawRuns.get, note: 'one connection, one request at a time' });
			record({
				name: `  explains: this node, fixed ID (no expression)`,
				value: round(median(n8n.runs.nodeFixed.map((run) => run.ms)), 0),
				unit: 'ms',
				runs: n8n.runs.nodeFixed.map((run) => run.ms),
				note: 'the difference to the node above is n8n’s expression evaluation of {{ $json.id }}',
			});
			record({
				name: `  explains: raw loop, new connection per request`,
				value: round(median(rawRuns.fresh), 0),
				unit: 'ms',
				runs: rawRuns.fresh,
				note: 'n8n’s HTTP client makes a new agent, so a new connection, for every request',
			});
			record({ name: 'Ratio node / HTTP Request', value: round(nodeGet / httpGet), unit: '×', target: { max: 1.0, text: '≤ 1.0' } });
			record({ name: 'Ratio node / raw', value: round(nodeGet / rawGet), unit: '×', target: { max: 1.3, text: '≤ 1.3' } });
			record({ name: `Return All ${BENEFICIARIES} beneficiaries: this node`, value: round(all, 0), unit: 'ms', runs: n8n.runs.returnAll.map((run) => run.ms), note: `${BENEFICIARIES / 100} pages of 100` });
			record({ name: `Return All ${BENEFICIARIES} beneficiaries: raw page loop`, value: round(rawPages, 0), unit: 'ms', runs: rawRuns.pages });
			record({ name: 'Ratio Return All / raw', value: round(all / rawPages), unit: '×', target: { max: 1.2, text: '≤ 1.2' } });
			const nodeRss = allRss.length && baseRss.length ? (median(allRss) - median(baseRss)) / 1024 : null;
			record({
				name: 'Peak memory of Return All (this node in n8n)',
				value: nodeRss === null ? null : round(nodeRss, 1),
				unit: 'MB',
				note: `peak RSS of \`n8n execute\` above a one-record run (${baseRss.length ? round(median(baseRss) / 1024, 0) : '?'} MB)`,
			});
			record({ name: 'Peak memory of the raw page loop', value: round(rawRss / 1024, 1), unit: 'MB', note: 'peak RSS above the idle client' });
			// The raw loop's growth can be below the measuring resolution: no ratio then.
			const rawMb = rawRss / 1024;
			record({
				name: 'Peak memory ratio Return All / raw',
				value: nodeRss === null || rawMb < 0.5 ? null : round(nodeRss / rawMb),
				unit: '×',
				note: rawMb < 0.5 ? 'not meaningful: the raw loop grew by less than 0.5 MB' : undefined,
			});
		} else {
			record({ name: `Transaction Get × ${GET_ITEMS}: raw keep-alive loop`, value: round(rawGet, 0), unit: 'ms', runs: rawRuns.get });
			record({ name: `Return All ${BENEFICIARIES} beneficiaries: raw page loop`, value: round(rawPages, 0), unit: 'ms', runs: rawRuns.pages });
			record({ name: 'Peak memory of the raw page loop', value: round(rawRss / 1024, 1), unit: 'MB' });
		}
	} finally {
		await sandbox.close();
		fs.rmSync(workDir, { recursive: true, force: true });
	}
	printTable();
	fs.writeFileSync(RESULTS_FILE, `${JSON.stringify({ environment, figures, notes }, null, 2)}\n`);
	process.stdout.write(`\nWritten to ${path.relative(process.cwd(), RESULTS_FILE)}\n`);
}

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
