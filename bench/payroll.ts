/**
 * The payroll part (results.json's `payroll` key): Payout → Initiate of N payees, this node
 * against n8n's HTTP Request node, at 0 and 100 ms per answer (see payrollFigures), and its
 * figures (payrollReport). The credentials say One Process Only ("n8n Runs As": no claim wait),
 * except one variant at 100 ms, whose credential is as a user creates it (claims).
 */
import { spawnSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

import { startSandbox, type SandboxOptions } from '../tooling/sandbox';
import type { PayoutRecord } from '../tooling/sandbox/state';
import { log, quiet, round, type BenchState } from './figures';
import { measuredN8n, type E2E, type OutputItem, type WorkflowJson, type WorkflowNode } from './e2e';
import { gitState } from './package';
import { addBeneficiary, serviceStats, type Endpoint } from './sandboxes';
import { SLOW_MS, type Settings } from './settings';
import { payrollReport } from './payrollReport';
import { PAYROLL_HTTP_BATCH, type PayrollRun, type PayrollVariant } from './payrollVariants';

/** Runs per payroll size at 0 ms per answer (fewer for the big ones: time). */
const payrollRuns = (settings: Settings, n: number): number => (settings.trial ? 1 : n <= 2_000 ? 3 : 1);
/** Runs of the payroll at 100 ms per answer. */
const payrollSlowRuns = (settings: Settings): number => (settings.trial ? 1 : 3);
/** One at a time at 100 ms takes N × (100 ms + n8n's time): one run (its spread is a few per cent). */
const PAYROLL_SLOW_SEQUENTIAL_RUNS = 1;
const PAYROLL_ENDPOINT = '/api/v2/wallets/payout/initialize';
/** An `n8n execute` of 50,000 items runs for minutes: the CLI's own limit, not the e2e one (3 min). */
const PAYROLL_EXECUTE_TIMEOUT_MS = 60 * 60_000;

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
export async function payrollFigures(state: BenchState, e2e: E2E, workDir: string, defaultBatch: number): Promise<Record<string, unknown>> {
	const started = Date.now();
	const { settings } = state;
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
		// The same sandbox (and beneficiary) with the credential as a user creates it: no "n8n Runs As",
		// so every record is a claim across processes. Runs are one after another and each one clears
		// the sandbox's records before and after it, so sharing it keeps each run's checks its own.
		const slowAsCreated: Endpoint = { ...slow, label: `at ${SLOW_MS} ms, credential as created`, credential: { id: 'BenchPayroll100c', name: `Bench payroll at ${SLOW_MS} ms, credential as created` }, asCreated: true };
		const variants: PayrollVariant[] = [];
		for (const n of settings.payrollSizes) {
			const label = n.toLocaleString('en');
			variants.push({ key: `fast.node.${n}`, kind: 'node', n, runs: payrollRuns(settings, n), endpoint: fast, label: `${label} at 0 ms: this node, default batching` });
			variants.push({ key: `fast.http.${n}`, kind: 'http', n, runs: payrollRuns(settings, n), endpoint: fast, label: `${label} at 0 ms: HTTP Request node, ${PAYROLL_HTTP_BATCH} per batch` });
		}
		const slowLabel = `${settings.payrollSlowN.toLocaleString('en')} at ${SLOW_MS} ms`;
		variants.push({ key: 'slow.node', kind: 'node', n: settings.payrollSlowN, runs: payrollSlowRuns(settings), endpoint: slow, label: `${slowLabel}: this node, default batching` });
		variants.push({ key: 'slow.nodeClaims', kind: 'node', n: settings.payrollSlowN, runs: payrollSlowRuns(settings), endpoint: slowAsCreated, label: `${slowLabel}: this node, default batching, credential as created (claims across processes)` });
		variants.push({ key: 'slow.node1', kind: 'node1', n: settings.payrollSlowN, runs: PAYROLL_SLOW_SEQUENTIAL_RUNS, endpoint: slow, label: `${slowLabel}: this node, Items per Batch 1` });
		variants.push({ key: 'slow.http', kind: 'http', n: settings.payrollSlowN, runs: payrollSlowRuns(settings), endpoint: slow, label: `${slowLabel}: HTTP Request node, ${PAYROLL_HTTP_BATCH} per batch` });
		variants.push({ key: 'slow.httpPaced', kind: 'httpPaced', n: settings.payrollSlowN, runs: payrollSlowRuns(settings), endpoint: slow, label: `${slowLabel}: HTTP Request node, ${PAYROLL_HTTP_BATCH} per batch every ${SLOW_MS} ms` });

		const installed = await e2e.install.ensureInstalled();
		// What is measured is this tarball: the commit is the one it was packed at (dist may be rebuilt later).
		const packedAt = gitState();
		const { n8n, rssDir } = await measuredN8n(e2e, settings, workDir, '-payroll');
		const runs: Record<string, PayrollRun[]> = {};
		try {
			// One Process Only, as the README recommends for one n8n; the credential as created leaves "n8n Runs As" out.
			await n8n.importCredentials(
				[fast, slow, slowAsCreated].map((e) => ({
					id: e.credential.id,
					name: e.credential.name,
					type: e2e.n8n.CREDENTIAL_TYPE,
					data: { apiKey: e.sandbox.apiKey, baseUrl: e.url, webhookSecret: '', ...(e.asCreated ? {} : { processes: 'one' }) },
				})),
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
			log(state, `payroll: ${planned.length} executions (${variants.map((v) => `${v.key} × ${v.runs}`).join(', ')})`);

			for (const { v, run, workflow } of planned) {
				const e = v.endpoint;
				const what = `payroll ${v.key} run ${run + 1}/${v.runs}`;
				await quiet(state, what);
				log(state, what);
				for (const file of fs.readdirSync(rssDir)) fs.rmSync(path.join(rssDir, file));
				e.sandbox.clearRequests();
				e.sandbox.state.transactions.length = 0;
				e.sandbox.controls.setWalletBalance('USD', 1e12);
				const began = Date.now();
				const cli = await n8n.cli(['execute', `--id=${workflow.id}`, '--rawOutput'], { timeoutMs: PAYROLL_EXECUTE_TIMEOUT_MS });
				const wallMs = Date.now() - began;
				let result: import('../tooling/n8n/n8n').ExecutionResult;
				try {
					result = e2e.n8n.extractExecutionJson(cli.stdout);
				} catch (error) {
					throw new Error(`${what}: ${(error as Error).message}\n(exit ${cli.code ?? cli.signal}; stderr:)\n${cli.stderr.slice(-4000)}`);
				}
				if (result.status !== 'success') {
					throw new Error(`${what}: the execution ended "${result.status}": ${JSON.stringify(result.data.resultData.error ?? null).slice(0, 2000)}`);
				}
				const nodeRun = result.data.resultData.runData.Pay?.[0] as (import('../tooling/n8n/n8n').NodeRun & { executionTime: number }) | undefined;
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
					state,
					`  ${(wallMs / 1000).toFixed(1)} s: Pay ${nodeRun.executionTime} ms (${round(nodeRun.executionTime / v.n, 2)} ms per payout), ${v.n} paid, at most ${stats.maxInFlight} in flight, peak RSS ${rss ? Math.round(rss.maxRssKb / 1024) : '?'} MB, saved ${round(saved[0].dataBytes! / 1024 ** 2, 1)} MB of execution data`,
				);
				e.sandbox.clearRequests();
				e.sandbox.state.transactions.length = 0;
			}
		} finally {
			await n8n.dispose();
		}
		return payrollReport(state, variants, runs, defaultBatch, installed.nodeBin, e2e.install.N8N_VERSION, packedAt, (Date.now() - started) / 1000);
	} finally {
		for (const close of closers) await close();
	}
}
