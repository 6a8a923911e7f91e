/**
 * `npm run bench`: the performance figures of the README's "Performance" section, each the median
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
 *   Request node as above and paced (10 per batch every 100 ms: about 10 in flight). Fewer runs
 *   than the rest, to keep the part short: 3 runs for 2,000 (at 0 and 100 ms), 1 for 15,000 and
 *   50,000 and for one at a time at 100 ms (about 4 minutes alone); even so the part takes about
 *   27 minutes on this 2-core machine (measured with other processes keeping half of it busy),
 *   11 of them the two runs of 50,000. Every run is checked
 *   in the sandbox's own records (exactly N payouts, one per row, each with its row's amount, N
 *   requests; any other count stops the bench) and in n8n's database (one successful execution
 *   saved with its data, whose size is reported).
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
 */
import { spawn, spawnSync, type ChildProcess } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import http from 'http';
import https from 'https';
import * as os from 'os';
import * as path from 'path';

import { selfSignedCertificate, startSandbox, type RecordedRequest, type Sandbox, type SandboxOptions, type SelfSignedCertificate } from '../test/sandbox';
import type { PayoutRecord } from '../test/sandbox/state';
import { startLink, type Link } from './link';
import { waitForQuiet } from './quiet';

const ROOT = path.resolve(__dirname, '..');
const TRIAL = process.env.BENCH_TRIAL === '1';
const RUNS = TRIAL ? 1 : Math.max(5, Number(process.env.BENCH_RUNS ?? 5) || 5);
const QUIET = Number(process.env.BENCH_QUIET ?? 0.25);
const QUIET_WAIT = Number(process.env.BENCH_QUIET_WAIT ?? 120);
const GETS = 200;
const PAYOUTS = 100;
const SMALL = 1_000;
const LARGE = 10_000;
const SLOW_MS = 100;
const JITTER = { fixedMs: 50, jitterMs: 100 };
const SWEEP = [1, 5, 10, 20, 50];
/** The settlement run: each payout reaches its final status this long after it was sent. */
const SETTLE_DELAY_MS = 5_000;
const LINK_ONE_WAY_MS = 10;
const LINK_GETS = 30;
const RESULTS_FILE = path.join(ROOT, 'bench', 'results.json');
const STARTED = Date.now();
/** BENCH_ONLY=payroll: the payroll part alone, merged into the existing results.json. */
const ONLY = process.env.BENCH_ONLY?.trim() || undefined;
const SKIP_PAYROLL = process.env.BENCH_SKIP_PAYROLL === '1';
const isPayroll = (figure: { section: string }) => figure.section.startsWith('Payroll');

// ---------------------------------------------------------------- figures

interface Target {
	/** The figure must be at most `max` and at least `min`. */
	max?: number;
	min?: number;
	text: string;
}

interface Figure {
	section: string;
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
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function round(value: number, digits = 2): number {
	const factor = 10 ** digits;
	return Math.round(value * factor) / factor;
}

function record(figure: Figure): Figure {
	if (figure.value !== null && !Number.isFinite(figure.value)) figure.value = null;
	if (figure.target && figure.value !== null) {
		figure.met = (figure.target.max === undefined || figure.value <= figure.target.max) && (figure.target.min === undefined || figure.value >= figure.target.min);
	}
	figures.push(figure);
	return figure;
}

function log(message: string): void {
	const elapsed = ((Date.now() - STARTED) / 1000).toFixed(0).padStart(4);
	process.stderr.write(`[bench ${elapsed} s] ${message}\n`);
}

/** How busy the machine was before each measurement (other processes: the bench is idle then). */
const conditions: Array<{ what: string; busy?: number; waitedSeconds: number }> = [];

async function quiet(what: string): Promise<void> {
	const check = await waitForQuiet(QUIET, QUIET_WAIT, (busy) => log(`  waiting: other processes keep ${Math.round(busy * 100)} % of the CPUs busy`));
	conditions.push({ what, busy: check.busy === undefined ? undefined : round(check.busy), waitedSeconds: check.waitedSeconds });
}

// ---------------------------------------------------------------- package

function packageFigures(): void {
	const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
	if (pack.status !== 0) throw new Error(`npm pack --dry-run failed:\n${pack.stderr}`);
	const [info] = JSON.parse(pack.stdout) as Array<{ size: number; unpackedSize: number; entryCount: number }>;
	const section = 'Package';
	record({
		section,
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
	const runtime = [...Object.keys(manifest.dependencies ?? {}), ...(manifest.bundleDependencies ?? manifest.bundledDependencies ?? [])];
	record({
		section,
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
		section: 'Package',
		name: 'Cold require of WalletPayments.node.js',
		value: round(median(runs)),
		unit: 'ms',
		runs,
		target: { max: 20, text: '≤ 20 ms' },
		note: `${nodeLabel}, n8n-workflow already loaded; the trigger and the credential add ${round(median(rest))} ms`,
	});
}

/** The node's default Items per Batch, as built (dist), else as written in the source. */
function defaultItemsPerBatch(): number {
	try {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const fields = require(path.join(ROOT, 'dist', 'nodes', 'WalletPayments', 'helpers', 'fields.js')) as { DEFAULT_ITEMS_PER_BATCH?: number };
		if (typeof fields.DEFAULT_ITEMS_PER_BATCH === 'number') return fields.DEFAULT_ITEMS_PER_BATCH;
	} catch {
		// fall back to the source
	}
	const source = fs.readFileSync(path.join(ROOT, 'nodes', 'WalletPayments', 'helpers', 'fields.ts'), 'utf8');
	const match = /DEFAULT_ITEMS_PER_BATCH\s*=\s*(\d+)/.exec(source);
	if (!match) throw new Error('DEFAULT_ITEMS_PER_BATCH not found in dist or nodes/WalletPayments/helpers/fields.ts');
	return Number(match[1]);
}

// ---------------------------------------------------------------- sandboxes

type EndpointKey = 'fast' | 'fast1k' | 'slow' | 'slow1k' | 'jitter' | 'pay' | 'settle' | 'tls' | 'link' | 'payFast' | 'paySlow';

/** A sandbox as the node reaches it: its URL (the link's for `link`) and the credential for it. */
interface Endpoint {
	key: EndpointKey;
	label: string;
	sandbox: Sandbox;
	url: string;
	credential: { id: string; name: string };
	/** The file of the certificate to trust (HTTPS only). */
	ca?: string;
	/** A saved beneficiary (payouts). */
	beneficiaryId?: string;
}

/** A JSON request to a sandbox, straight (not through the link). */
function api(endpoint: Endpoint, method: string, pathname: string, body?: unknown): Promise<Record<string, unknown>> {
	const { sandbox } = endpoint;
	const client = sandbox.url.startsWith('https:') ? https : http;
	const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
	return new Promise((resolve, reject) => {
		const request = client.request(
			`${sandbox.url}${pathname}`,
			{
				method,
				ca: endpoint.ca ? fs.readFileSync(endpoint.ca) : undefined,
				agent: false,
				headers: {
					authorization: `Bearer ${sandbox.apiKey}`,
					...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
				},
			},
			(response) => {
				const chunks: Buffer[] = [];
				response.on('data', (chunk: Buffer) => chunks.push(chunk));
				response.on('end', () => {
					const json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { status: boolean; data: Record<string, unknown> };
					if (response.statusCode !== 200 || json.status !== true) reject(new Error(`${method} ${pathname}: ${response.statusCode} ${JSON.stringify(json)}`));
					else resolve(json.data);
				});
				response.on('error', reject);
			},
		);
		request.on('error', reject);
		request.end(payload);
	});
}

/** A new payout in the endpoint's sandbox: a transaction for one measured node to read. */
async function newTransaction(endpoint: Endpoint): Promise<string> {
	const payout = await api(endpoint, 'POST', '/api/v2/wallets/payout/initialize', {
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
	endpoint.sandbox.clearRequests();
	return payout.id as string;
}

/** What the service saw of a measured run. */
interface ServiceStats {
	requests: number;
	/** Distinct connections the requests came on. */
	connections: number;
	/** Most requests the service was answering at one moment. */
	maxInFlight: number;
	/** Sum of the service's time per request (arrival to end of answer), ms. */
	serviceMs: number;
}

function serviceStats(requests: RecordedRequest[]): ServiceStats {
	const edges = requests.flatMap((r) => [
		[r.startedMs ?? 0, 1],
		[r.finishedMs ?? r.startedMs ?? 0, -1],
	]);
	edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
	let current = 0;
	let most = 0;
	for (const [, step] of edges) most = Math.max(most, (current += step));
	return {
		requests: requests.length,
		connections: new Set(requests.map((r) => r.connection)).size,
		maxInFlight: most,
		serviceMs: requests.reduce((sum, r) => sum + ((r.finishedMs ?? 0) - (r.startedMs ?? 0)), 0),
	};
}

const notWarmUp = (r: RecordedRequest) => r.query.warmup === undefined;

// ---------------------------------------------------------------- raw clients

interface RawResult {
	ms: number;
	requests: number;
	records: number;
	maxRssKb?: number;
	stats: ServiceStats;
	/** n8n-transport.js only: connections still open at the service after the last answer. */
	openAfter?: number;
}

const rawRuns: Record<string, RawResult[]> = {};

/**
 * Runs bench/raw-client.js or bench/n8n-transport.js in its own process on n8n's Node,
 * asynchronously (the sandboxes answer from this process).
 */
async function client(nodeBin: string, script: string, args: string[], sandbox: Sandbox | undefined, ca: string | undefined): Promise<RawResult> {
	sandbox?.clearRequests();
	const holds = script === 'n8n-transport.js';
	const child: ChildProcess = spawn(nodeBin, [path.join(ROOT, 'bench', script), ...args], {
		stdio: [holds ? 'pipe' : 'ignore', 'pipe', 'pipe'],
		// This machine's NODE_EXTRA_CA_CERTS (if any) is replaced: only the bench's certificate.
		env: { ...process.env, NODE_EXTRA_CA_CERTS: ca ?? '' },
	});
	let stdout = '';
	let stderr = '';
	let openAfter: number | undefined;
	const firstLine = new Promise<void>((resolve) => {
		child.stdout!.on('data', (chunk: Buffer) => {
			stdout += chunk.toString();
			if (stdout.includes('\n')) resolve();
		});
	});
	child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const closed = new Promise<number | null>((resolve, reject) => {
		child.once('error', reject);
		child.once('close', resolve);
	});
	if (holds) {
		// The client waits for its stdin to close: count what is still open at the service first.
		await Promise.race([firstLine, closed]);
		await new Promise((resolve) => setTimeout(resolve, 200));
		openAfter = sandbox?.openConnections();
		child.stdin!.end();
	}
	const code = await closed;
	if (code !== 0) throw new Error(`${script} ${args.join(' ')} exited ${code}:\n${stderr}`);
	const result = JSON.parse(stdout.trim().split('\n').pop()!) as Omit<RawResult, 'stats'>;
	const requests = (sandbox?.requests ?? []).filter(notWarmUp);
	sandbox?.clearRequests();
	return { ...result, stats: serviceStats(requests), openAfter };
}

/** One run of every raw client (after each round of n8n executions, so they interleave). */
async function rawRound(nodeBin: string, n8nModules: string | undefined, endpoints: Partial<Record<EndpointKey, Endpoint>>, defaultBatch: number, run: number): Promise<void> {
	await quiet(`raw clients, run ${run + 1}`);
	log(`raw clients, run ${run + 1}/${RUNS}`);
	const keep = (key: string, result: RawResult, requests: number, records?: number) => {
		if (result.requests !== requests || result.stats.requests !== requests) throw new Error(`${key}: ${result.requests} requests (the service saw ${result.stats.requests}), expected ${requests}`);
		if (records !== undefined && result.records !== records) throw new Error(`${key}: ${result.records} records, expected ${records}`);
		(rawRuns[key] ??= []).push(result);
	};
	for (const e of Object.values(endpoints)) {
		if (!e || !['fast', 'slow', 'jitter', 'tls', 'link'].includes(e.key)) continue;
		const id = await newTransaction(e);
		const count = e.key === 'link' ? LINK_GETS : GETS;
		const get = (extra: string[]) => client(nodeBin, 'raw-client.js', ['get', e.url, e.sandbox.apiKey, id, String(count), ...extra], e.sandbox, e.ca);
		if (e.key !== 'jitter') keep(`raw.get.${e.key}.batch1`, await get([]), count);
		if (e.key !== 'link') keep(`raw.get.${e.key}.default`, await get([`--concurrency=${defaultBatch}`]), count);
		if (e.key === 'fast' || e.key === 'tls' || e.key === 'link') {
			keep(`raw.get.${e.key}.fresh`, await get(['--fresh']), count);
			if (n8nModules) {
				const transport = (extra: string[]) => client(nodeBin, 'n8n-transport.js', [n8nModules, 'get', e.url, e.sandbox.apiKey, id, String(count), ...extra], e.sandbox, e.ca);
				if (e.key !== 'link') {
					keep(`transport.get.${e.key}`, await transport([]), count);
					keep(`transport.get.${e.key}.keepAlive`, await transport(['--agent-options={"keepAlive":true}']), count);
				}
			}
		}
	}
	for (const [key, records] of [
		['fast1k', SMALL],
		['fast', LARGE],
		['slow1k', SMALL],
		['slow', LARGE],
	] as const) {
		const e = endpoints[key];
		if (!e) continue;
		keep(`raw.all.${key}`, await client(nodeBin, 'raw-client.js', ['pages', e.url, e.sandbox.apiKey], e.sandbox, undefined), records / 100, records);
		// n8n's transport alone, at 0 ms only (at 100 ms the service's time hides it).
		if (n8nModules && (key === 'fast' || key === 'fast1k')) {
			keep(`transport.all.${key}`, await client(nodeBin, 'n8n-transport.js', [n8nModules, 'pages', e.url, e.sandbox.apiKey], e.sandbox, undefined), records / 100, records);
		}
	}
}

async function rawIdle(nodeBin: string): Promise<number> {
	const idles: number[] = [];
	for (let run = 0; run < 3; run++) idles.push((await client(nodeBin, 'raw-client.js', ['idle'], undefined, undefined)).maxRssKb ?? 0);
	return median(idles);
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

type WorkflowNode = import('../test/e2e/support/workflow').WorkflowNode;
type WorkflowJson = import('../test/e2e/support/n8n').WorkflowJson;
type OutputItem = { json: Record<string, unknown>; pairedItem?: unknown };

interface Measured {
	/** Figure key, e.g. get.slow.default. */
	key: string;
	node: WorkflowNode;
	endpoint: Endpoint;
	items: number;
	/** This node's requests among the sandbox's (each node reads its own transaction or sandbox). */
	match: (request: RecordedRequest) => boolean;
	/** Extra checks of the output and the requests; throws when they fail. */
	check?: (items: OutputItem[], requests: RecordedRequest[]) => void;
}

interface Branch {
	/** Makes the branch's input items (not measured). */
	source: WorkflowNode;
	/**
	 * Unmeasured nodes that run first, on the source's first 20 items (a Limit node): the code
	 * paths are warm when the measured nodes run, as the raw clients' are (20 untimed requests).
	 */
	warmups: WorkflowNode[];
	measured: Measured[];
}

const WARM_UP_ITEMS = 20;

interface BenchWorkflow {
	json: WorkflowJson;
	measured: Measured[];
	endpoints: Endpoint[];
}

/**
 * Manual Trigger → each branch's source → a Limit node → its warm-ups, then (from the source) its
 * measured nodes. n8n (execution order v1) runs a node's children top to bottom, each with its own
 * children to the end before the next, so measured nodes never overlap; every run checks that
 * from their start times.
 */
function benchWorkflow(e2e: E2E, id: string, name: string, branches: Branch[]): BenchWorkflow {
	const trigger = e2e.workflow.manualTrigger();
	trigger.position = [0, 0];
	const nodes: WorkflowNode[] = [trigger];
	const connections: Record<string, { main: Array<Array<{ node: string; type: string; index: number }>> }> = {};
	const link = (from: string, to: string) => (connections[from] ??= { main: [[]] }).main[0].push({ node: to, type: 'main', index: 0 });
	let y = 0;
	for (const branch of branches) {
		branch.source.position = [220, y];
		nodes.push(branch.source);
		link(trigger.name, branch.source.name);
		if (branch.warmups.length > 0) {
			const first = e2e.workflow.node(`First ${WARM_UP_ITEMS} of ${branch.source.name}`, 'n8n-nodes-base.limit', 1, { maxItems: WARM_UP_ITEMS });
			first.position = [440, y];
			nodes.push(first);
			link(branch.source.name, first.name);
			for (const warmup of branch.warmups) {
				warmup.position = [660, y];
				y += 120;
				nodes.push(warmup);
				link(first.name, warmup.name);
			}
		}
		for (const measured of branch.measured) {
			measured.node.position = [440, y];
			y += 120;
			nodes.push(measured.node);
			link(branch.source.name, measured.node.name);
		}
		y += 240;
	}
	const names = new Set<string>();
	for (const node of nodes) {
		if (names.has(node.name)) throw new Error(`Duplicate node name ${node.name}`);
		names.add(node.name);
	}
	const measured = branches.flatMap((branch) => branch.measured);
	return {
		json: { id, name, nodes, connections, settings: { executionOrder: 'v1' }, active: false },
		measured,
		endpoints: [...new Set(measured.map((m) => m.endpoint))],
	};
}

interface NodeRun {
	/** n8n's executionTime of the node, ms. */
	ms: number;
	stats: ServiceStats;
}

interface N8nResults {
	nodeBin: string;
	nodeVersion: string;
	n8nVersion: string;
	runs: Record<string, NodeRun[]>;
	/** Peak resident memory of `n8n execute`, KB (one run each). */
	rss: Record<string, number>;
}

/**
 * An n8n with the packed package (packed into `pack<suffix>`), each process's peak memory written
 * to `maxrss<suffix>` (bench/maxrss.js), and a CPU profile with BENCH_PROFILE.
 */
async function measuredN8n(e2e: E2E, workDir: string, suffix: string, env: Record<string, string> = {}) {
	const tarball = e2e.n8n.packPackage(path.join(workDir, `pack${suffix}`));
	const rssDir = path.join(workDir, `maxrss${suffix}`);
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
			...env,
		},
	});
	return { n8n, rssDir };
}

async function n8nFigures(e2e: E2E, endpoints: Partial<Record<EndpointKey, Endpoint>>, certificate: SelfSignedCertificate | undefined, defaultBatch: number, workDir: string): Promise<N8nResults> {
	const installed = await e2e.install.ensureInstalled();
	// The HTTPS sandbox's certificate, trusted as a private CA is; no check is turned off.
	const { n8n, rssDir } = await measuredN8n(e2e, workDir, '', certificate ? { NODE_EXTRA_CA_CERTS: certificate.certFile } : {});
	try {
		const all = Object.values(endpoints).filter((e): e is Endpoint => e !== undefined);
		await n8n.importCredentials(
			all.map((e) => ({ id: e.credential.id, name: e.credential.name, type: e2e.n8n.CREDENTIAL_TYPE, data: { apiKey: e.sandbox.apiKey, baseUrl: e.url, webhookSecret: '' } })),
		);
		const { node, walletNode } = e2e.workflow;
		const wallet = (name: string, e: Endpoint, resource: string, operation: string, parameters: Record<string, unknown>): WorkflowNode =>
			walletNode(name, resource, operation, parameters, { credentialId: e.credential.id, credentialName: e.credential.name });
		const httpRequest = (name: string, e: Endpoint, field: string): WorkflowNode =>
			node(
				name,
				'n8n-nodes-base.httpRequest',
				4.5,
				{
					method: 'GET',
					url: `={{ ${JSON.stringify(`${e.url}/api/v2/transactions/`)} + $json.${field} }}`,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: 'walletPaymentsApi',
					options: {},
				},
				{ credentials: { walletPaymentsApi: e.credential } },
			);
		const byPath = (id: string) => (r: RecordedRequest) => r.path === `/api/v2/transactions/${id}`;

		/** Transaction Gets against one endpoint, each variant reading its own transaction. */
		const getBranch = async (e: Endpoint, variants: Array<'batch1' | 'default' | 'sweep' | 'fixedId' | 'http'>, count = GETS): Promise<Branch> => {
			const fields: Record<string, string> = {};
			const measured: Measured[] = [];
			const add = async (suffix: string, make: (field: string, id: string) => WorkflowNode) => {
				const id = await newTransaction(e);
				const field = suffix.replace(/\W/g, '_');
				fields[field] = id;
				measured.push({ key: `get.${e.key}.${suffix}`, node: make(field, id), endpoint: e, items: count, match: byPath(id) });
			};
			const get = (name: string, transactionId: string, itemsPerBatch?: number) =>
				wallet(name, e, 'transaction', 'get', { transactionId, simplify: false, ...(itemsPerBatch === undefined ? {} : { batching: { itemsPerBatch } }) });
			if (variants.includes('batch1')) await add('batch1', (field) => get(`Get ${e.label}, sequential`, `={{ $json.${field} }}`, 1));
			if (variants.includes('default')) await add('default', (field) => get(`Get ${e.label}, default batching`, `={{ $json.${field} }}`));
			if (variants.includes('sweep')) {
				for (const size of SWEEP) {
					if (size === 1 || size === defaultBatch) continue; // measured above
					await add(`batch${size}`, (field) => get(`Get ${e.label}, ${size} per batch`, `={{ $json.${field} }}`, size));
				}
			}
			if (variants.includes('fixedId')) await add('batch1.fixedId', (_field, id) => get(`Get ${e.label}, sequential, fixed ID`, id, 1));
			if (variants.includes('http')) await add('http', (field) => httpRequest(`HTTP Request ${e.label}`, e, field));
			const warm = await newTransaction(e);
			fields.warm = warm;
			return {
				source: node(`IDs ${e.label}`, 'n8n-nodes-base.code', 2, { jsCode: `const ids = ${JSON.stringify(fields)};\nreturn Array.from({ length: ${count} }, () => ({ json: { ...ids } }));` }),
				warmups: [get(`Warm-up ${e.label}`, '={{ $json.warm }}', 10), httpRequest(`Warm-up HTTP ${e.label}`, e, 'warm')],
				measured,
			};
		};
		// The measured lists' pages (the warm-up lists filter by status: their pages are not).
		const pages = (r: RecordedRequest) => r.path === '/api/v2/beneficiaries' && r.query.limit === '100' && r.query.status === undefined;
		const returnAll = (name: string, e: Endpoint, items: number): Measured => ({
			key: `all.${e.key}`,
			node: wallet(name, e, 'beneficiary', 'getAll', { returnAll: true, simplify: false }),
			endpoint: e,
			items,
			match: pages,
		});
		const warmList = (name: string, e: Endpoint) => wallet(name, e, 'beneficiary', 'getAll', { returnAll: false, limit: 500, simplify: false, filters: { status: 'SUCCESS' } });
		const { fast, fast1k, slow, slow1k, jitter, pay, settle, tls, link } = endpoints;

		const atZero = benchWorkflow(e2e, 'BenchAtZeroMs001', 'Bench: 0 ms per answer', [
			await getBranch(fast!, ['batch1', 'default', 'sweep', 'fixedId', 'http']),
			...(tls ? [await getBranch(tls, ['batch1', 'http'])] : []),
			...(link ? [await getBranch(link, ['batch1'], LINK_GETS)] : []),
			{
				source: node('Lists at 0 ms', 'n8n-nodes-base.noOp', 1, {}),
				warmups: [warmList('Warm-up list at 0 ms', fast1k!)],
				measured: [returnAll('Return All 1,000 at 0 ms', fast1k!, SMALL), returnAll('Return All 10,000 at 0 ms', fast!, LARGE)],
			},
		]);
		const payees = node('Payees', 'n8n-nodes-base.code', 2, {
			// A key new in every execution: each run sends its 100 payouts (the node's exactly-once
			// guard would otherwise output a later run's items as already submitted).
			jsCode: `const run = String($execution.id);\nreturn Array.from({ length: ${PAYOUTS} }, (_, i) => ({ json: { row: i + 1, key: 'bench-' + run + '-' + (i + 1) } }));`,
		});
		const payoutParameters = (e: Endpoint) => ({
			sourceWalletCurrency: 'USD',
			amountUnit: 'minor',
			amount: 500,
			customerEmail: 'payee@example.com',
			description: '={{ "Payroll row " + $json.row }}',
			beneficiaryMode: 'id',
			beneficiaryId: { __rl: true, mode: 'id', value: e.beneficiaryId },
			duplicateProtection: { idempotencyKey: '={{ $json.key }}' },
		});
		const payouts: Measured = {
			key: 'payouts.pay',
			// One after another (Items per Batch 1), as before the Batching option: the payroll part
			// measures the default.
			node: wallet('Payouts at 100 ms', pay!, 'payout', 'initiate', { ...payoutParameters(pay!), batching: { itemsPerBatch: 1 } }),
			endpoint: pay!,
			items: PAYOUTS,
			match: (r) => r.path === '/api/v2/wallets/payout/initialize',
			check: (items, requests) => {
				const bad = items.find((item) => item.json.alreadySubmitted === true || item.json.id === undefined);
				if (bad) throw new Error(`a payout was not sent: ${JSON.stringify(bad.json).slice(0, 300)}`);
				if (items.some((item, index) => (item.pairedItem as { item?: number } | undefined)?.item !== index)) throw new Error('payout outputs are not paired in input order');
				const sent = requests.map((r) => (r.body as { description?: string } | undefined)?.description);
				const expected = Array.from({ length: PAYOUTS }, (_, i) => `Payroll row ${i + 1}`);
				if (JSON.stringify(sent) !== JSON.stringify(expected)) throw new Error('payouts did not reach the service one by one in input order');
				const stats = serviceStats(requests);
				if (stats.maxInFlight !== 1) throw new Error(`payouts overlapped: ${stats.maxInFlight} in flight`);
			},
		};
		// The whole payout run of the README: sent (default Batching), then every payout waited to its final
		// status with the node's own "Wait for Final Status" (its defaults: first check after 5 s,
		// then twice as long each time).
		const transactionRead = (r: RecordedRequest) => r.method === 'GET' && r.path.startsWith('/api/v2/transactions/');
		const settled: Measured = {
			key: 'payouts.settle',
			node: wallet(`Payouts settled at ${SLOW_MS} ms`, settle!, 'payout', 'initiate', { ...payoutParameters(settle!), waitForFinalStatus: true, maxWaitSeconds: 300 }),
			endpoint: settle!,
			items: PAYOUTS,
			match: (r) => r.path === '/api/v2/wallets/payout/initialize' || transactionRead(r),
			check: (items, requests) => {
				const unsettled = items.find((item) => item.json.settled !== true || item.json.finalStatus !== 'success');
				if (unsettled) throw new Error(`a payout did not settle: ${JSON.stringify(unsettled.json).slice(0, 300)}`);
				if (items.some((item, index) => (item.pairedItem as { item?: number } | undefined)?.item !== index)) throw new Error('settled payouts are not paired in input order');
				const sent = requests.filter((r) => r.method === 'POST').length;
				if (sent !== PAYOUTS) throw new Error(`${sent} payouts sent, expected ${PAYOUTS}`);
				const checks = items.reduce((sum, item) => sum + Number(item.json.checks), 0);
				const reads = requests.filter(transactionRead).length;
				if (reads !== checks) throw new Error(`the items report ${checks} checks, the service saw ${reads} reads`);
			},
		};
		const atSlow = benchWorkflow(e2e, 'BenchAtSlowMs001', `Bench: ${SLOW_MS} ms and ${JITTER.fixedMs}–${JITTER.fixedMs + JITTER.jitterMs} ms per answer`, [
			await getBranch(slow!, ['batch1', 'default', 'sweep', 'http']),
			await getBranch(jitter!, ['default', 'http']),
			{ source: payees, warmups: [], measured: [payouts] },
			{ source: node('Payees to settle', 'n8n-nodes-base.code', 2, payees.parameters), warmups: [], measured: [settled] },
			{
				source: node(`Lists at ${SLOW_MS} ms`, 'n8n-nodes-base.noOp', 1, {}),
				warmups: [warmList(`Warm-up list at ${SLOW_MS} ms`, slow1k!)],
				measured: [returnAll(`Return All 1,000 at ${SLOW_MS} ms`, slow1k!, SMALL), returnAll(`Return All 10,000 at ${SLOW_MS} ms`, slow!, LARGE)],
			},
		]);
		// Peak memory (one run each): Return All of 10,000 alone, and a one-record baseline.
		const memory = benchWorkflow(e2e, 'BenchMemory10k01', 'Bench: Return All 10,000 (memory)', [
			{ source: node('Begin', 'n8n-nodes-base.noOp', 1, {}), warmups: [], measured: [{ ...returnAll('Return All 10,000', fast!, LARGE), key: 'memory.all' }] },
		]);
		const baseline = benchWorkflow(e2e, 'BenchMemoryOne01', 'Bench: one beneficiary (memory baseline)', [
			{ source: node('Begin', 'n8n-nodes-base.noOp', 1, {}), warmups: [], measured: [{ key: 'memory.one', node: wallet('One beneficiary', fast!, 'beneficiary', 'getAll', { returnAll: false, limit: 1, simplify: false }), endpoint: fast!, items: 1, match: (r) => r.path === '/api/v2/beneficiaries' }] },
		]);
		await n8n.importWorkflows([atZero, atSlow, memory, baseline].map((w) => w.json));

		const results: N8nResults = {
			nodeBin: installed.nodeBin,
			nodeVersion: spawnSync(installed.nodeBin, ['--version'], { encoding: 'utf8' }).stdout.trim(),
			n8nVersion: e2e.install.N8N_VERSION,
			runs: {},
			rss: {},
		};
		const execute = async (workflow: BenchWorkflow, label: string): Promise<void> => {
			await quiet(label);
			log(label);
			for (const file of fs.readdirSync(rssDir)) fs.rmSync(path.join(rssDir, file));
			for (const e of workflow.endpoints) e.sandbox.clearRequests();
			pay!.sandbox.controls.setWalletBalance('USD', 1e12);
			settle!.sandbox.controls.setWalletBalance('USD', 1e12);
			const began = Date.now();
			const result = await n8n.executeOk(workflow.json.id);
			const summary: string[] = [];
			let previousEnd = 0;
			const ordered = workflow.measured
				.map((m) => ({ m, run: result.data.resultData.runData[m.node.name]?.[0] as { startTime: number; executionTime: number } | undefined }))
				.sort((a, b) => (a.run?.startTime ?? 0) - (b.run?.startTime ?? 0));
			for (const { m, run } of ordered) {
				if (!run) throw new Error(`${workflow.json.name}: "${m.node.name}" did not run`);
				if (run.startTime < previousEnd) throw new Error(`${workflow.json.name}: "${m.node.name}" started before the node before it ended`);
				previousEnd = run.startTime + run.executionTime;
				const items = e2e.n8n.nodeItems(result, m.node.name) as OutputItem[];
				if (items.length !== m.items) throw new Error(`${m.node.name}: ${items.length} items, expected ${m.items}`);
				const failed = items.find((item) => item.json.error !== undefined);
				if (failed) throw new Error(`${m.node.name}: an item failed: ${JSON.stringify(failed.json).slice(0, 300)}`);
				const requests = m.endpoint.sandbox.requests.filter(m.match);
				m.check?.(items, requests);
				(results.runs[m.key] ??= []).push({ ms: run.executionTime, stats: serviceStats(requests) });
				summary.push(`${m.key} ${run.executionTime}`);
			}
			log(`  ${((Date.now() - began) / 1000).toFixed(1)} s: ${summary.join(', ')}`);
			const rss = fs
				.readdirSync(rssDir)
				.map((file) => JSON.parse(fs.readFileSync(path.join(rssDir, file), 'utf8')) as { argv: string[]; maxRssKb: number })
				.find((entry) => entry.argv.includes('execute') && entry.argv[0] === n8n.install.n8nBin);
			if (rss) results.rss[workflow.json.id] = rss.maxRssKb;
			for (const e of workflow.endpoints) e.sandbox.clearRequests();
		};

		for (let run = 0; run < RUNS; run++) {
			await execute(atZero, `n8n run ${run + 1}/${RUNS}: ${atZero.json.name}`);
			await execute(atSlow, `n8n run ${run + 1}/${RUNS}: ${atSlow.json.name}`);
			await rawRound(installed.nodeBin, installed.n8nModules, endpoints, defaultBatch, run);
		}
		await execute(memory, `n8n: ${memory.json.name}`);
		await execute(baseline, `n8n: ${baseline.json.name}`);
		results.rss['memory.all'] = results.rss[memory.json.id];
		results.rss['memory.one'] = results.rss[baseline.json.id];
		return results;
	} finally {
		await n8n.dispose();
	}
}

// ---------------------------------------------------------------- payroll

/** Payroll sizes at 0 ms per answer, with the runs each (fewer for the big ones: time). */
const PAYROLL_SIZES: number[] = (process.env.BENCH_PAYROLL_N ?? '2000,15000,50000')
	.split(',')
	.map((n) => Number(n.trim()))
	.filter((n) => Number.isInteger(n) && n > 0);
const payrollRuns = (n: number): number => (TRIAL ? 1 : n <= 2_000 ? 3 : 1);
/** The payroll at 100 ms per answer. */
const PAYROLL_SLOW_N = Number(process.env.BENCH_PAYROLL_SLOW_N ?? 2_000) || 2_000;
const PAYROLL_SLOW_RUNS = TRIAL ? 1 : 3;
/** One at a time at 100 ms takes N × (100 ms + n8n's time): one run (its spread is a few per cent). */
const PAYROLL_SLOW_SEQUENTIAL_RUNS = 1;
/** The HTTP Request node's Batching → Items per Batch (the node's default in flight). */
const PAYROLL_HTTP_BATCH = 10;
const PAYROLL_ENDPOINT = '/api/v2/wallets/payout/initialize';
/** An `n8n execute` of 50,000 items runs for minutes: the CLI's own limit, not the e2e one (3 min). */
const PAYROLL_EXECUTE_TIMEOUT_MS = 60 * 60_000;
/** n8n's EXECUTIONS_DATA_MAX_DISPLAY_SIZE default: larger execution data is not shown in the editor. */
const N8N_MAX_DISPLAY_MB = 100;

type PayrollKind = 'node' | 'node1' | 'http' | 'httpPaced';

interface PayrollVariant {
	/** measurements key, e.g. fast.node.2000 */
	key: string;
	kind: PayrollKind;
	n: number;
	runs: number;
	endpoint: Endpoint;
	label: string;
}

interface PayrollRun {
	/** n8n's executionTime of the measured node, ms. */
	ms: number;
	/** The whole `n8n execute`, start-up included, ms. */
	wallMs: number;
	/** Peak RSS of `n8n execute` (n8n's main process), KB. */
	maxRssKb?: number;
	/** The execution as n8n saved it in its database: status and size of its data, bytes. */
	saved: { status: string; dataBytes: number };
	stats: ServiceStats;
}

/** Run under n8n's Node from n8n's folder (argv: database file, workflow ID): its saved executions. */
const SAVED_EXECUTIONS_SCRIPT = `
const sqlite3 = require('sqlite3');
const [database, workflowId] = process.argv.slice(1);
const db = new sqlite3.Database(database, sqlite3.OPEN_READONLY);
db.all(
	'SELECT e.status AS status, length(CAST(d.data AS BLOB)) AS dataBytes FROM execution_entity e LEFT JOIN execution_data d ON d.executionId = e.id WHERE e.workflowId = ?',
	[workflowId],
	(error, rows) => {
		if (error) throw error;
		process.stdout.write(JSON.stringify(rows));
		db.close();
	},
);
`;

/** n8n's saved executions of a workflow (n8n is not running: \`n8n execute\` has exited). */
function savedExecutions(install: { nodeBin: string; n8nHost: string; n8nModules: string }, dataDir: string, workflowId: string): Array<{ status: string; dataBytes: number | null }> {
	const result = spawnSync(install.nodeBin, ['-e', SAVED_EXECUTIONS_SCRIPT, path.join(dataDir, 'database.sqlite'), workflowId], {
		cwd: install.n8nHost,
		encoding: 'utf8',
		env: { ...process.env, NODE_OPTIONS: '', NODE_PATH: install.n8nModules },
		timeout: 120_000,
	});
	if (result.status !== 0) throw new Error(`Reading n8n's saved executions failed:\n${result.stderr}`);
	return JSON.parse(result.stdout) as Array<{ status: string; dataBytes: number | null }>;
}

/** The amount of payroll row `row` (1-based), minor units: 1.00 to 9.99 USD. */
const payrollAmount = (row: number) => 100 + ((row - 1) % 900);

/**
 * The payroll part: Manual Trigger → a Code node making N payees ({ row, amount }) → the measured
 * node paying each one, in its own workflow with a fresh ID per run (the node's store in n8n
 * starts empty, as for a new payroll workflow), one `n8n execute` per run, so that its peak memory
 * is the run's. Every run is checked in the sandbox's own records: exactly N payouts, one per row,
 * each with the row's amount, and N requests.
 */
/** The one beneficiary every payout of an endpoint goes to; the sandbox's request log starts after it. */
async function addBeneficiary(endpoint: Endpoint): Promise<void> {
	endpoint.beneficiaryId = (await api(endpoint, 'POST', '/api/v2/beneficiaries', {
		country: 'KE',
		currency: 'KES',
		customerEmail: 'payee@example.com',
		destination: { type: 'MOBILEMONEY', network: 'MPESA', accountName: 'Bench Payee', accountNumber: '254712345678' },
	})).id as string;
	endpoint.sandbox.clearRequests();
}

async function payrollFigures(e2e: E2E, workDir: string, defaultBatch: number): Promise<Record<string, unknown>> {
	const started = Date.now();
	const closers: Array<() => Promise<void>> = [];
	const makeEndpoint = async (key: 'payFast' | 'paySlow', id: string, label: string, options: SandboxOptions): Promise<Endpoint> => {
		const sandbox = await startSandbox(options);
		closers.push(() => sandbox.close());
		const endpoint: Endpoint = { key, label, sandbox, url: sandbox.url, credential: { id, name: `Bench payroll ${label}` } };
		await addBeneficiary(endpoint);
		return endpoint;
	};
	try {
		const fast = await makeEndpoint('payFast', 'BenchPayroll0ms1', 'at 0 ms', {});
		const slow = await makeEndpoint('paySlow', 'BenchPayroll100m', `at ${SLOW_MS} ms`, { latency: { fixedMs: SLOW_MS } });
		const variants: PayrollVariant[] = [];
		for (const n of PAYROLL_SIZES) {
			const label = n.toLocaleString('en');
			variants.push({ key: `fast.node.${n}`, kind: 'node', n, runs: payrollRuns(n), endpoint: fast, label: `${label} at 0 ms: this node, default batching` });
			variants.push({ key: `fast.http.${n}`, kind: 'http', n, runs: payrollRuns(n), endpoint: fast, label: `${label} at 0 ms: HTTP Request node, ${PAYROLL_HTTP_BATCH} per batch` });
		}
		const slowLabel = `${PAYROLL_SLOW_N.toLocaleString('en')} at ${SLOW_MS} ms`;
		variants.push({ key: 'slow.node', kind: 'node', n: PAYROLL_SLOW_N, runs: PAYROLL_SLOW_RUNS, endpoint: slow, label: `${slowLabel}: this node, default batching` });
		variants.push({ key: 'slow.node1', kind: 'node1', n: PAYROLL_SLOW_N, runs: PAYROLL_SLOW_SEQUENTIAL_RUNS, endpoint: slow, label: `${slowLabel}: this node, Items per Batch 1` });
		variants.push({ key: 'slow.http', kind: 'http', n: PAYROLL_SLOW_N, runs: PAYROLL_SLOW_RUNS, endpoint: slow, label: `${slowLabel}: HTTP Request node, ${PAYROLL_HTTP_BATCH} per batch` });
		variants.push({ key: 'slow.httpPaced', kind: 'httpPaced', n: PAYROLL_SLOW_N, runs: PAYROLL_SLOW_RUNS, endpoint: slow, label: `${slowLabel}: HTTP Request node, ${PAYROLL_HTTP_BATCH} per batch every ${SLOW_MS} ms` });

		const installed = await e2e.install.ensureInstalled();
		// What is measured is this tarball: the commit is the one it was packed at (dist may be rebuilt later).
		const packedAt = gitState();
		const { n8n, rssDir } = await measuredN8n(e2e, workDir, '-payroll');
		const runs: Record<string, PayrollRun[]> = {};
		try {
			await n8n.importCredentials(
				[fast, slow].map((e) => ({ id: e.credential.id, name: e.credential.name, type: e2e.n8n.CREDENTIAL_TYPE, data: { apiKey: e.sandbox.apiKey, baseUrl: e.url, webhookSecret: '' } })),
			);
			const { node, walletNode, manualTrigger, chain } = e2e.workflow;
			const payees = (n: number) =>
				node('Payees', 'n8n-nodes-base.code', 2, {
					jsCode: `return Array.from({ length: ${n} }, (_, i) => ({ json: { row: i + 1, amount: 100 + (i % 900) } }));`,
				});
			const measuredNode = (v: PayrollVariant): WorkflowNode => {
				const e = v.endpoint;
				if (v.kind === 'node' || v.kind === 'node1') {
					return walletNode(
						'Pay',
						'payout',
						'initiate',
						{
							sourceWalletCurrency: 'USD',
							amountUnit: 'minor',
							amount: '={{ $json.amount }}',
							customerEmail: 'payee@example.com',
							description: '={{ "Payroll row " + $json.row }}',
							beneficiaryMode: 'id',
							beneficiaryId: { __rl: true, mode: 'id', value: e.beneficiaryId },
							// Duplicate Protection at its default; Batching at its default, or one at a time.
							...(v.kind === 'node1' ? { batching: { itemsPerBatch: 1 } } : {}),
						},
						{ credentialId: e.credential.id, credentialName: e.credential.name },
					);
				}
				return node(
					'Pay',
					'n8n-nodes-base.httpRequest',
					4.5,
					{
						method: 'POST',
						url: `${e.url}${PAYROLL_ENDPOINT}`,
						authentication: 'predefinedCredentialType',
						nodeCredentialType: 'walletPaymentsApi',
						sendBody: true,
						contentType: 'json',
						specifyBody: 'json',
						// The JSON body as a user types it in the editor: the item's fields in {{ }}.
						jsonBody: `={ "amount": {{ $json.amount }}, "sourceWalletCurrency": "USD", "customerEmail": "payee@example.com", "description": "Payroll row {{ $json.row }}", "beneficiaryId": ${JSON.stringify(e.beneficiaryId)} }`,
						options: { batching: { batch: { batchSize: PAYROLL_HTTP_BATCH, batchInterval: v.kind === 'httpPaced' ? SLOW_MS : 0 } } },
					},
					{ credentials: { walletPaymentsApi: e.credential } },
				);
			};
			// One workflow per run, each with a fresh ID (16 letters and digits), imported at once.
			const planned: Array<{ v: PayrollVariant; run: number; workflow: WorkflowJson }> = [];
			const maxRuns = Math.max(...variants.map((v) => v.runs));
			for (let run = 0; run < maxRuns; run++) {
				for (const v of variants) {
					if (run >= v.runs) continue;
					const id = `pr${crypto.randomBytes(7).toString('hex')}`;
					const trigger = manualTrigger();
					planned.push({ v, run, workflow: chain(id, `Bench payroll: ${v.label}, run ${run + 1}`, [trigger, payees(v.n), measuredNode(v)]) });
				}
			}
			await n8n.importWorkflows(planned.map((p) => p.workflow));
			log(`payroll: ${planned.length} executions (${variants.map((v) => `${v.key} × ${v.runs}`).join(', ')})`);

			for (const { v, run, workflow } of planned) {
				const e = v.endpoint;
				const what = `payroll ${v.key} run ${run + 1}/${v.runs}`;
				await quiet(what);
				log(what);
				for (const file of fs.readdirSync(rssDir)) fs.rmSync(path.join(rssDir, file));
				e.sandbox.clearRequests();
				e.sandbox.state.transactions.length = 0;
				e.sandbox.controls.setWalletBalance('USD', 1e12);
				const began = Date.now();
				const cli = await n8n.cli(['execute', `--id=${workflow.id}`, '--rawOutput'], { timeoutMs: PAYROLL_EXECUTE_TIMEOUT_MS });
				const wallMs = Date.now() - began;
				let result: import('../test/e2e/support/n8n').ExecutionResult;
				try {
					result = e2e.n8n.extractExecutionJson(cli.stdout);
				} catch (error) {
					throw new Error(`${what}: ${(error as Error).message}\n(exit ${cli.code ?? cli.signal}; stderr:)\n${cli.stderr.slice(-4000)}`);
				}
				if (result.status !== 'success') {
					throw new Error(`${what}: the execution ended "${result.status}": ${JSON.stringify(result.data.resultData.error ?? null).slice(0, 2000)}`);
				}
				const nodeRun = result.data.resultData.runData.Pay?.[0] as (import('../test/e2e/support/n8n').NodeRun & { executionTime: number }) | undefined;
				if (!nodeRun) throw new Error(`${what}: the Pay node did not run`);
				const items = e2e.n8n.nodeItems(result, 'Pay') as OutputItem[];
				if (items.length !== v.n) throw new Error(`${what}: ${items.length} output items, expected ${v.n}`);
				items.forEach((item, index) => {
					const json = item.json as { id?: unknown; error?: unknown; alreadySubmitted?: unknown; status?: unknown; data?: { id?: unknown } };
					const paid = v.kind === 'node' || v.kind === 'node1' ? typeof json.id === 'string' && json.alreadySubmitted === undefined && json.error === undefined : json.status === true && typeof json.data?.id === 'string';
					if (!paid) throw new Error(`${what}: item ${index} was not paid: ${JSON.stringify(json).slice(0, 300)}`);
					if ((v.kind === 'node' || v.kind === 'node1') && (item.pairedItem as { item?: number } | undefined)?.item !== index) throw new Error(`${what}: output ${index} is not paired with input ${index}`);
				});
				// The sandbox's own records: exactly N payouts, one per row, each with its row's amount.
				const payouts = e.sandbox.state.transactions.filter((tx): tx is PayoutRecord => tx.kind === 'payout');
				if (payouts.length !== v.n) throw new Error(`${what}: the sandbox made ${payouts.length} payouts, expected exactly ${v.n}`);
				const rows = new Map<number, number>();
				for (const tx of payouts) {
					const row = Number(/^Payroll row (\d+)$/.exec(tx.description)?.[1]);
					if (!(row >= 1 && row <= v.n)) throw new Error(`${what}: a payout the run did not ask for: ${JSON.stringify(tx.description)}`);
					if (rows.has(row)) throw new Error(`${what}: row ${row} paid twice`);
					if (tx.centAmount !== payrollAmount(row)) throw new Error(`${what}: row ${row} paid ${tx.centAmount}, expected ${payrollAmount(row)}`);
					if (tx.beneficiaryId !== e.beneficiaryId) throw new Error(`${what}: row ${row} paid to ${tx.beneficiaryId}`);
					rows.set(row, tx.centAmount);
				}
				// What n8n saved of the run (executions are saved at n8n's defaults: all, with their data).
				const saved = savedExecutions(n8n.install, n8n.dataDir, workflow.id);
				if (saved.length !== 1 || saved[0].status !== 'success' || !saved[0].dataBytes) throw new Error(`${what}: n8n saved ${JSON.stringify(saved)}, expected one successful execution with its data`);
				const requests = e.sandbox.requests.filter((r) => r.method === 'POST' && r.path === PAYROLL_ENDPOINT);
				if (requests.length !== v.n) throw new Error(`${what}: the sandbox saw ${requests.length} payout requests, expected ${v.n}`);
				const stats = serviceStats(requests);
				if ((v.kind === 'node' && stats.maxInFlight > defaultBatch) || (v.kind === 'node1' && stats.maxInFlight !== 1)) {
					throw new Error(`${what}: ${stats.maxInFlight} payouts in flight at once`);
				}
				const rss = fs
					.readdirSync(rssDir)
					.map((file) => JSON.parse(fs.readFileSync(path.join(rssDir, file), 'utf8')) as { argv: string[]; maxRssKb: number })
					.find((entry) => entry.argv.includes('execute') && entry.argv[0] === n8n.install.n8nBin);
				(runs[v.key] ??= []).push({ ms: nodeRun.executionTime, wallMs, maxRssKb: rss?.maxRssKb, saved: { status: saved[0].status, dataBytes: saved[0].dataBytes! }, stats });
				log(
					`  ${(wallMs / 1000).toFixed(1)} s: Pay ${nodeRun.executionTime} ms (${round(nodeRun.executionTime / v.n, 2)} ms per payout), ${v.n} paid, at most ${stats.maxInFlight} in flight, peak RSS ${rss ? Math.round(rss.maxRssKb / 1024) : '?'} MB, saved ${round(saved[0].dataBytes! / 1024 ** 2, 1)} MB of execution data`,
				);
				e.sandbox.clearRequests();
				e.sandbox.state.transactions.length = 0;
			}
		} finally {
			await n8n.dispose();
		}
		return payrollReport(variants, runs, defaultBatch, installed.nodeBin, e2e.install.N8N_VERSION, packedAt, (Date.now() - started) / 1000);
	} finally {
		for (const close of closers) await close();
	}
}

/** How busy other processes kept the CPUs before these measurements. */
function loadSummary(list: typeof conditions): Record<string, unknown> {
	const busy = list.map((c) => c.busy).filter((b): b is number => b !== undefined);
	return {
		note: `share of the CPUs other processes kept busy just before each measurement (the bench waited for ≤ ${QUIET}, at most ${QUIET_WAIT} s)`,
		median: busy.length ? round(median(busy)) : null,
		max: busy.length ? round(Math.max(...busy)) : null,
		waitedSeconds: list.reduce((sum, c) => sum + c.waitedSeconds, 0),
		overThreshold: list.filter((c) => c.busy !== undefined && c.busy > QUIET).length,
	};
}

/** The payroll figures (printed with the others) and the `payroll` key of results.json. */
function payrollReport(
	variants: PayrollVariant[],
	runs: Record<string, PayrollRun[]>,
	defaultBatch: number,
	nodeBin: string,
	n8nVersion: string,
	packedAt: ReturnType<typeof gitState>,
	seconds: number,
): Record<string, unknown> {
	const measured: Record<string, unknown> = {};
	const mb = (kb: number | undefined) => (kb === undefined ? undefined : round(kb / 1024, 0));
	for (const v of variants) {
		const r = runs[v.key];
		if (!r?.length) continue;
		const m = (pick: (s: ServiceStats) => number) => round(median(r.map((x) => pick(x.stats))), 0);
		const rss = r.map((x) => x.maxRssKb).filter((x): x is number => x !== undefined);
		measured[v.key] = {
			label: v.label,
			n: v.n,
			ms: round(medianOf(r), 0),
			msPerPayout: round(medianOf(r) / v.n, 2),
			runs: r.map((x) => x.ms),
			wallMs: round(median(r.map((x) => x.wallMs)), 0),
			maxRssMb: rss.length ? mb(median(rss)) : null,
			maxRssMbRuns: rss.map((x) => mb(x)),
			savedExecutionMb: round(median(r.map((x) => x.saved.dataBytes)) / 1024 ** 2, 1),
			paid: v.n,
			requests: m((s) => s.requests),
			connections: m((s) => s.connections),
			maxInFlight: m((s) => s.maxInFlight),
			serviceMs: m((s) => s.serviceMs),
		};
	}
	const get = (key: string) => measured[key] as { ms: number; msPerPayout: number; maxRssMb: number | null; maxInFlight: number; runs: number[]; n: number } | undefined;
	const runsNote = (key: string) => {
		const x = get(key);
		return x ? `${x.runs.length} run${x.runs.length === 1 ? '' : 's'}${x.runs.length > 1 ? ` (${x.runs.map((ms) => round(ms / x.n, 2)).join(', ')} ms per payout)` : ''}; at most ${x.maxInFlight} in flight` : '';
	};
	const fastSection = 'Payroll at 0 ms per answer: Payout → Initiate, n8n’s executionTime of the node / N';
	for (const n of PAYROLL_SIZES) {
		const label = n.toLocaleString('en');
		const nodeKey = `fast.node.${n}`;
		const httpKey = `fast.http.${n}`;
		record({ section: fastSection, name: `${label}: this node, default batching (${defaultBatch} in flight)`, value: get(nodeKey)?.msPerPayout ?? null, unit: 'ms per payout', runs: get(nodeKey)?.runs, note: runsNote(nodeKey) });
		record({ section: fastSection, name: `${label}: HTTP Request node, Items per Batch ${PAYROLL_HTTP_BATCH}`, value: get(httpKey)?.msPerPayout ?? null, unit: 'ms per payout', runs: get(httpKey)?.runs, note: runsNote(httpKey) });
		for (const [key, who] of [
			[nodeKey, 'this node'],
			[httpKey, 'HTTP Request node'],
		] as const) {
			const x = measured[key] as { maxRssMb: number | null; maxRssMbRuns: number[]; savedExecutionMb: number } | undefined;
			const tooBig = x && x.savedExecutionMb > N8N_MAX_DISPLAY_MB ? `, more than n8n shows (EXECUTIONS_DATA_MAX_DISPLAY_SIZE, ${N8N_MAX_DISPLAY_MB} MB)` : '';
			record({
				section: fastSection,
				name: `${label}: peak memory of n8n, ${who}`,
				value: x?.maxRssMb ?? null,
				unit: 'MB',
				note: x ? `peak RSS of \`n8n execute\` (runs: ${x.maxRssMbRuns.join(', ')} MB); n8n saved ${x.savedExecutionMb} MB of execution data${tooBig}` : '',
			});
		}
	}
	const slowSection = `Payroll at ${SLOW_MS} ms per answer: ${PAYROLL_SLOW_N.toLocaleString('en')} payouts`;
	for (const [key, name] of [
		['slow.node', `This node, default batching (${defaultBatch} in flight)`],
		['slow.node1', 'This node, one at a time (Items per Batch 1)'],
		['slow.http', `HTTP Request node, Items per Batch ${PAYROLL_HTTP_BATCH} (no interval)`],
		['slow.httpPaced', `HTTP Request node, Items per Batch ${PAYROLL_HTTP_BATCH}, Batch Interval ${SLOW_MS} ms`],
	] as const) {
		const x = get(key);
		record({ section: slowSection, name, value: x ? round(x.ms / 1000, 1) : null, unit: 's', runs: x?.runs, note: x ? `${x.msPerPayout} ms per payout; ${runsNote(key)}` : '' });
	}
	const targets = 'Payroll targets';
	const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? null : round(a / b, 2));
	const httpSlow = get('slow.http');
	const httpPaced = get('slow.httpPaced');
	record({
		section: targets,
		name: `${SLOW_MS} ms: this node (${defaultBatch} in flight) / HTTP Request node, Items per Batch ${PAYROLL_HTTP_BATCH}`,
		value: ratio(get('slow.node')?.ms, httpSlow?.ms),
		unit: '×',
		target: { max: 1.2, text: '≤ 1.2×' },
		note: httpSlow ? `the HTTP Request node's Items per Batch without an interval bounds nothing: ${httpSlow.maxInFlight} in flight` : '',
	});
	record({
		section: targets,
		name: `${SLOW_MS} ms: this node / HTTP Request node, ${PAYROLL_HTTP_BATCH} per batch every ${SLOW_MS} ms`,
		value: ratio(get('slow.node')?.ms, httpPaced?.ms),
		unit: '×',
		target: { max: 1.2, text: '≤ 1.2×' },
		note: httpPaced ? `paced to about ${PAYROLL_HTTP_BATCH} in flight (at most ${httpPaced.maxInFlight})` : '',
	});
	const small = Math.min(...PAYROLL_SIZES);
	const big = Math.max(...PAYROLL_SIZES);
	if (big !== small) {
		record({
			section: targets,
			name: `0 ms: this node, ms per payout at ${big.toLocaleString('en')} / at ${small.toLocaleString('en')}`,
			value: ratio(get(`fast.node.${big}`)?.msPerPayout, get(`fast.node.${small}`)?.msPerPayout),
			unit: '×',
			target: { max: 1.5, text: '≤ 1.5×' },
		});
	}
	for (const n of PAYROLL_SIZES) {
		record({
			section: targets,
			name: `0 ms, ${n.toLocaleString('en')}: this node / HTTP Request node`,
			value: ratio(get(`fast.node.${n}`)?.ms, get(`fast.http.${n}`)?.ms),
			unit: '×',
			target: { max: 1.5, text: '≤ 1.5×' },
		});
	}
	return {
		environment: {
			date: new Date().toISOString(),
			...packedAt,
			n8n: n8nVersion,
			node: `Node ${spawnSync(nodeBin, ['--version'], { encoding: 'utf8' }).stdout.trim()} (n8n’s)`,
			defaultItemsPerBatch: defaultBatch,
			httpRequestBatching: { batchSize: PAYROLL_HTTP_BATCH, batchInterval: 0, pacedBatchIntervalMs: SLOW_MS },
			latencyMs: { fast: 0, slow: SLOW_MS },
			runs: Object.fromEntries(variants.map((v) => [v.key, v.runs])),
			...(TRIAL ? { trial: true } : {}),
			seconds: round(seconds, 0),
		},
		figures: figures.filter(isPayroll),
		method:
			'Manual Trigger → Code node (N items { row, amount }) → the measured node "Pay", a workflow with a fresh ID per run (the node’s store starts empty), one `n8n execute` per run; Pay is Payout → Initiate by saved beneficiary ID (one beneficiary), amount in minor units from the item, Duplicate Protection at its default, or the HTTP Request node POSTing the same body with the same credential. Time: n8n’s executionTime of Pay; memory: peak RSS of the `n8n execute` process. Every run checked in the sandbox: exactly N payouts, one per row, with the row’s amount. No warm-up (N ≥ 2,000). Medians of fewer runs than the rest of the bench (see runs) to keep the part short.',
		measurements: measured,
	};
}

// ---------------------------------------------------------------- report

function medianOf(runs: Array<{ ms: number }> | undefined): number {
	return runs && runs.length ? median(runs.map((r) => r.ms)) : NaN;
}

function statsNote(runs: Array<{ stats: ServiceStats }> | undefined): string {
	if (!runs?.length) return '';
	const m = (pick: (s: ServiceStats) => number) => round(median(runs.map((r) => pick(r.stats))), 0);
	return `${m((s) => s.requests)} requests, ${m((s) => s.connections)} connections, at most ${m((s) => s.maxInFlight)} in flight`;
}

function reportFigures(n8n: N8nResults | undefined, defaultBatch: number, idleRssKb: number, link: Link | undefined): void {
	const node = (key: string) => n8n?.runs[key];
	const add = (section: string, name: string, runs: Array<{ ms: number; stats: ServiceStats }> | undefined, note?: string) =>
		record({ section, name, value: runs?.length ? round(medianOf(runs), 0) : null, unit: 'ms', runs: runs?.map((r) => round(r.ms, 1)), note: [statsNote(runs), note].filter(Boolean).join('; ') });
	const ratio = (a: number, b: number) => round(a / b);

	const latencies: Array<['fast' | 'slow' | 'jitter', string]> = [
		['fast', '0 ms'],
		['slow', `${SLOW_MS} ms`],
		['jitter', `${JITTER.fixedMs}–${JITTER.fixedMs + JITTER.jitterMs} ms`],
	];
	for (const [key, latency] of latencies) {
		const section = `${GETS} × Transaction → Get, ${latency} per answer`;
		if (key !== 'jitter') add(section, 'This node, sequential (Items per Batch 1)', node(`get.${key}.batch1`));
		add(section, `This node, default batching (Items per Batch ${defaultBatch})`, node(`get.${key}.default`));
		add(section, 'HTTP Request node, same credential', node(`get.${key}.http`));
		if (key !== 'jitter') add(section, 'Raw client, sequential (1 kept-alive connection)', rawRuns[`raw.get.${key}.batch1`]);
		add(section, `Raw client, ${defaultBatch} in flight (${defaultBatch} kept-alive connections)`, rawRuns[`raw.get.${key}.default`]);
		if (key === 'fast') add(section, 'explains: this node, sequential, fixed ID (no expression)', node('get.fast.batch1.fixedId'), 'the difference to sequential is n8n’s evaluation of {{ $json.<field> }}');
	}
	if (n8n) {
		const section = `Targets at ${SLOW_MS} ms per answer`;
		const seq = medianOf(node('get.slow.batch1'));
		const def = medianOf(node('get.slow.default'));
		record({ section, name: 'Default batching: speed-up over sequential', value: round(seq / def, 1), unit: '×', target: { min: 5, text: '≥ 5×' } });
		record({ section, name: `Default batching / raw client with ${defaultBatch} in flight`, value: ratio(def, medianOf(rawRuns['raw.get.slow.default'])), unit: '×', target: { max: 1.2, text: '≤ 1.2' } });
		record({ section, name: 'Default batching / HTTP Request node', value: ratio(def, medianOf(node('get.slow.http'))), unit: '×', target: { max: 1.0, text: '≤ 1.0' } });
		record({ section, name: `Return All of ${LARGE.toLocaleString('en')} / raw page loop`, value: ratio(medianOf(node('all.slow')), medianOf(rawRuns['raw.all.slow'])), unit: '×', target: { max: 1.2, text: '≤ 1.2' } });
		record({ section, name: `Return All of ${SMALL.toLocaleString('en')} / raw page loop`, value: ratio(medianOf(node('all.slow1k')), medianOf(rawRuns['raw.all.slow1k'])), unit: '×', target: { max: 1.2, text: '≤ 1.2' } });
	}

	for (const [key, latency] of latencies.slice(0, 2)) {
		const section = `Items per Batch, ${GETS} × Transaction → Get, ${latency} per answer`;
		for (const size of SWEEP) {
			const runs = node(size === 1 ? `get.${key}.batch1` : size === defaultBatch ? `get.${key}.default` : `get.${key}.batch${size}`);
			add(section, `Items per Batch ${size}${size === defaultBatch ? ' (default)' : ''}`, runs, runs?.length && key === 'slow' ? `${round(medianOf(runs) / medianOf(node('get.slow.http')), 2)} × the HTTP Request node` : undefined);
		}
	}

	for (const [key, small, latency] of [
		['fast', 'fast1k', '0 ms'],
		['slow', 'slow1k', `${SLOW_MS} ms`],
	] as const) {
		const section = `Return All of beneficiaries (100 per page), ${latency} per answer`;
		for (const [k, count] of [
			[small, SMALL],
			[key, LARGE],
		] as const) {
			const label = count.toLocaleString('en');
			const nodeRuns = node(`all.${k}`);
			const raw = rawRuns[`raw.all.${k}`];
			const transport = rawRuns[`transport.all.${k}`];
			add(section, `${label}: this node`, nodeRuns);
			add(section, `${label}: raw page loop (1 kept-alive connection)`, raw);
			if (transport) add(section, `${label}: n8n’s transport, the same loop`, transport, 'bench/n8n-transport.js: n8n’s httpRequest without the rest of n8n');
			if (nodeRuns?.length && raw?.length) {
				const perPage = (medianOf(nodeRuns) - medianOf(raw)) / (count / 100);
				record({ section, name: `${label}: this node / raw`, value: ratio(medianOf(nodeRuns), medianOf(raw)), unit: '×', note: `${round(perPage, 1)} ms more per page of 100` });
			}
		}
	}

	if (n8n) {
		const section = `${PAYOUTS} payouts (Payout → Initiate), ${SLOW_MS} ms per answer`;
		const runs = node('payouts.pay');
		add(section, 'This node: one after another, in input order', runs, 'every run checked: all sent, outputs paired in input order, one request at a time in input order');
		if (runs?.length) {
			const service = median(runs.map((r) => r.stats.serviceMs));
			record({ section, name: 'per payout', value: round(medianOf(runs) / PAYOUTS, 1), unit: 'ms', note: `${round((medianOf(runs) - service) / PAYOUTS, 1)} ms of it not waiting for the service` });
		}
	}

	if (n8n) {
		const section = `${PAYOUTS} payouts sent and waited to their final status, ${SLOW_MS} ms per answer, settled ${SETTLE_DELAY_MS / 1000} s after sending`;
		const runs = node('payouts.settle');
		add(section, 'This node: Payout → Initiate with Wait for Final Status (defaults)', runs, 'every run checked: all settled (success), outputs paired in input order');
		if (runs?.length) {
			record({ section, name: 'Requests per payout', value: round(median(runs.map((r) => r.stats.requests)) / PAYOUTS, 2), unit: '', note: '1 to send + the status checks (Transaction → Get); the waits run together after the last payout is sent' });
			record({ section, name: 'Wall time minus sending one by one', value: round((medianOf(runs) - medianOf(node('payouts.pay'))) / 1000, 1), unit: 's', note: `the settlement delay is ${SETTLE_DELAY_MS / 1000} s; the first check comes 5 s after the last payout is sent` });
		}
	}

	{
		const section = `Connection cost: ${GETS} sequential Transaction → Get, 0 ms per answer (loopback)`;
		for (const [key, scheme] of [
			['fast', 'HTTP'],
			['tls', 'HTTPS'],
		] as const) {
			if (!rawRuns[`raw.get.${key}.batch1`]) continue;
			add(section, `${scheme}: this node, sequential`, node(`get.${key}.batch1`));
			add(section, `${scheme}: HTTP Request node`, node(`get.${key}.http`));
			add(section, `${scheme}: raw client, one kept-alive connection`, rawRuns[`raw.get.${key}.batch1`]);
			add(section, `${scheme}: raw client, a new connection per request`, rawRuns[`raw.get.${key}.fresh`]);
			add(section, `${scheme}: n8n’s transport, the node’s request options`, rawRuns[`transport.get.${key}`]);
			const keepAlive = rawRuns[`transport.get.${key}.keepAlive`];
			add(section, `${scheme}: n8n’s transport + agentOptions: { keepAlive: true }`, keepAlive, keepAlive?.length ? `${round(median(keepAlive.map((r) => r.openAfter ?? 0)), 0)} connections still open (idle) at the service after the last answer` : undefined);
		}
		const perRequest = (fresh: string, kept: string) => round((medianOf(rawRuns[fresh]) - medianOf(rawRuns[kept])) / GETS, 2);
		record({ section, name: 'A new HTTP connection per request costs (raw client)', value: perRequest('raw.get.fast.fresh', 'raw.get.fast.batch1'), unit: 'ms', note: 'per request: new connection minus kept-alive; loopback: CPU only, no round trips' });
		if (rawRuns['raw.get.tls.batch1']) {
			record({ section, name: 'A new HTTPS connection per request costs (raw client)', value: perRequest('raw.get.tls.fresh', 'raw.get.tls.batch1'), unit: 'ms', note: 'TLS 1.3, RSA 2048 certificate, both ends on this machine; CPU only, no round trips' });
			record({ section, name: 'This node: HTTPS minus HTTP, per request', value: round((medianOf(node('get.tls.batch1')) - medianOf(node('get.fast.batch1'))) / GETS, 2), unit: 'ms', note: 'n8n opens a new connection for every request' });
		}
	}
	if (link && rawRuns['raw.get.link.batch1']) {
		const section = `Connection cost: ${LINK_GETS} sequential Transaction → Get over HTTPS through a ${link.roundTripMs} ms round-trip link, 0 ms per answer`;
		add(section, 'This node, sequential', node('get.link.batch1'));
		add(section, 'Raw client, one kept-alive connection', rawRuns['raw.get.link.batch1']);
		add(section, 'Raw client, a new connection per request', rawRuns['raw.get.link.fresh']);
		const perRequest = (medianOf(rawRuns['raw.get.link.fresh']) - medianOf(rawRuns['raw.get.link.batch1'])) / LINK_GETS;
		record({ section, name: 'A new HTTPS connection per request costs (raw client)', value: round(perRequest, 1), unit: 'ms', note: `${round(perRequest / link.roundTripMs, 1)} round trips: TCP handshake + TLS 1.3 handshake, and the TLS work` });
	}
	if (n8n?.rss['memory.all'] !== undefined && n8n.rss['memory.one'] !== undefined) {
		const section = `Return All of ${LARGE.toLocaleString('en')} at 0 ms: peak memory (one run)`;
		record({ section, name: 'This node in n8n', value: round((n8n.rss['memory.all'] - n8n.rss['memory.one']) / 1024, 1), unit: 'MB', note: `peak RSS of \`n8n execute\` above a one-record run (${round(n8n.rss['memory.one'] / 1024, 0)} MB)` });
		const rawRss = median((rawRuns['raw.all.fast'] ?? []).map((r) => (r.maxRssKb ?? 0) - idleRssKb)) / 1024;
		record({ section, name: 'Raw page loop', value: round(Math.max(0, rawRss), 1), unit: 'MB', note: rawRss < 0.5 ? 'peak RSS above the idle client: below what can be measured (0.5 MB)' : 'peak RSS above the idle client' });
	}
}

/**
 * Every measured variant by key (get.slow.default, raw.get.slow.default, …): median, runs and what
 * the service saw (medians). bench/tables.js renders the README's tables from these.
 */
function measurements(n8n: N8nResults | undefined): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	const put = (key: string, runs: Array<{ ms: number; stats: ServiceStats; openAfter?: number }>) => {
		const m = (pick: (s: ServiceStats) => number) => round(median(runs.map((r) => pick(r.stats))), 0);
		out[key] = {
			ms: round(medianOf(runs), 0),
			runs: runs.map((r) => round(r.ms, 1)),
			requests: m((s) => s.requests),
			connections: m((s) => s.connections),
			maxInFlight: m((s) => s.maxInFlight),
			serviceMs: m((s) => s.serviceMs),
			...(runs[0]?.openAfter !== undefined ? { openAfter: round(median(runs.map((r) => r.openAfter ?? 0)), 0) } : {}),
		};
	};
	for (const [key, runs] of Object.entries(n8n?.runs ?? {})) put(`node.${key}`, runs);
	for (const [key, runs] of Object.entries(rawRuns)) put(key, runs);
	return out;
}

function printTable(): void {
	const header = ['Figure', 'Median', 'Target', '', 'Notes'];
	for (const section of [...new Set(figures.map((f) => f.section))]) {
		const rows = figures
			.filter((f) => f.section === section)
			.map((figure) => [
				figure.name,
				figure.value === null ? 'n/a' : `${figure.value.toLocaleString('en')}${figure.unit ? ` ${figure.unit}` : ''}`,
				figure.target ? figure.target.text : '',
				figure.target ? (figure.value === null ? '?' : figure.met ? 'met' : 'MISSED') : '',
				figure.note ?? '',
			]);
		const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
		const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd();
		process.stdout.write(`\n${section}\n${line(header)}\n${widths.map((width) => '-'.repeat(width)).join('  ')}\n`);
		for (const row of rows) process.stdout.write(`${line(row)}\n`);
	}
	for (const note of notes) process.stdout.write(`\nNote: ${note}\n`);
}

// ---------------------------------------------------------------- main

function gitState(): { commit?: string; uncommittedNodeChanges?: boolean } {
	const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
	if (head.status !== 0) return {};
	const dirty = spawnSync('git', ['status', '--porcelain', '--', 'nodes', 'credentials'], { cwd: ROOT, encoding: 'utf8' });
	return { commit: head.stdout.trim(), uncommittedNodeChanges: dirty.status === 0 ? dirty.stdout.trim() !== '' : undefined };
}

/** The results.json there is (the sections a partial run keeps), or nothing. */
function previousResults(): Record<string, unknown> {
	try {
		return JSON.parse(fs.readFileSync(RESULTS_FILE, 'utf8')) as Record<string, unknown>;
	} catch {
		return {};
	}
}

/** BENCH_ONLY=payroll: the payroll part alone; the other sections of results.json are kept. */
async function payrollOnly(): Promise<void> {
	if (!e2eAvailable()) throw new Error('The payroll part needs the e2e install (scripts/n8n-install.js, test/e2e/support)');
	const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-bench-'));
	process.env.WALLET_E2E_RUN_DIR ??= workDir;
	let payroll: Record<string, unknown>;
	try {
		payroll = await payrollFigures(await loadE2E(), workDir, defaultItemsPerBatch());
	} finally {
		fs.rmSync(workDir, { recursive: true, force: true });
	}
	payroll.conditions = conditions;
	(payroll.environment as Record<string, unknown>).otherLoad = loadSummary(conditions);
	printTable();
	const results = { ...previousResults(), payroll };
	fs.writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
	process.stdout.write(`\nWritten to ${path.relative(process.cwd(), RESULTS_FILE)}: the payroll key (the other keys kept) (${round((Date.now() - STARTED) / 1000, 0)} s)\n`);
}

async function main(): Promise<void> {
	if (!fs.existsSync(path.join(ROOT, 'dist', 'nodes', 'WalletPayments', 'WalletPayments.node.js'))) {
		throw new Error('dist/ is missing: `npm run bench` builds it first (npm run build)');
	}
	if (ONLY !== undefined && ONLY !== 'payroll') throw new Error(`BENCH_ONLY=${ONLY}: the only part that runs alone is payroll`);
	if (ONLY === 'payroll') return await payrollOnly();
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
		runs: RUNS,
		...(TRIAL ? { trial: true } : {}),
		defaultItemsPerBatch: defaultBatch,
		latencyMs: { slow: SLOW_MS, jitter: `${JITTER.fixedMs}–${JITTER.fixedMs + JITTER.jitterMs}` },
		https: certificate ? 'RSA 2048 self-signed certificate made with openssl at run time, trusted through NODE_EXTRA_CA_CERTS' : 'not measured (no openssl)',
	};
	if (TRIAL) notes.push('BENCH_TRIAL=1: one run of everything; these are not medians.');
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

		log('package figures');
		packageFigures();

		let nodeBin = process.execPath;
		let nodeLabel = `Node ${process.version}`;
		let n8n: N8nResults | undefined;
		if (process.env.BENCH_SKIP_N8N) notes.push('BENCH_SKIP_N8N is set: the n8n figures were not measured.');
		else if (!e2eAvailable()) notes.push('The e2e install (scripts/n8n-install.js, test/e2e/support) is missing: the n8n figures were not measured.');
		if (!process.env.BENCH_SKIP_N8N && e2eAvailable()) {
			log(`n8n figures: ${RUNS} runs of each workflow, the raw clients after each (a cold n8n install takes about 4 minutes first)`);
			n8n = await n8nFigures(await loadE2E(), endpoints, certificate, defaultBatch, workDir);
			nodeBin = n8n.nodeBin;
			nodeLabel = `Node ${n8n.nodeVersion} (n8n’s)`;
			environment.n8n = n8n.n8nVersion;
		} else {
			for (let run = 0; run < RUNS; run++) await rawRound(nodeBin, undefined, endpoints, defaultBatch, run);
		}
		environment.node = nodeLabel;
		const idle = await rawIdle(nodeBin);
		await quiet('cold require');
		log('cold require');
		coldRequire(nodeBin, nodeLabel);
		reportFigures(n8n, defaultBatch, idle, link);
		measured = measurements(n8n);
		if (n8n && SKIP_PAYROLL) notes.push('BENCH_SKIP_PAYROLL=1: the payroll figures were not measured (results.json keeps the last ones).');
		else if (n8n) {
			const before = conditions.length;
			payroll = await payrollFigures(await loadE2E(), workDir, defaultBatch);
			payroll.conditions = conditions.slice(before);
			(payroll.environment as Record<string, unknown>).otherLoad = loadSummary(conditions.slice(before));
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
	const busy = conditions.map((c) => c.busy).filter((b): b is number => b !== undefined);
	environment.otherLoad = {
		note: `share of the CPUs other processes kept busy just before each measurement (the bench waited for ≤ ${QUIET}, at most ${QUIET_WAIT} s)`,
		median: busy.length ? round(median(busy)) : null,
		max: busy.length ? round(Math.max(...busy)) : null,
		waitedSeconds: conditions.reduce((sum, c) => sum + c.waitedSeconds, 0),
		overThreshold: conditions.filter((c) => c.busy !== undefined && c.busy > QUIET).map((c) => c.what),
	};
	environment.benchSeconds = round((Date.now() - STARTED) / 1000, 0);
	printTable();
	payroll ??= previousResults().payroll as Record<string, unknown> | undefined;
	const rest = figures.filter((f) => !isPayroll(f));
	fs.writeFileSync(RESULTS_FILE, `${JSON.stringify({ environment, figures: rest, notes, measurements: measured, memory, conditions, ...(payroll ? { payroll } : {}) }, null, 2)}\n`);
	process.stdout.write(`\nWritten to ${path.relative(process.cwd(), RESULTS_FILE)} (${environment.benchSeconds} s)\n`);
}

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
