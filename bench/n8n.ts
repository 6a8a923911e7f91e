/**
 * The n8n part: an n8n with the packed package (the e2e install), the bench's workflows (many
 * measured nodes per `n8n execute`, one branch each), and every run checked against the sandboxes'
 * request records. The raw clients run after each round of executions, so they interleave.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

import type { RecordedRequest, SelfSignedCertificate } from '../tooling/sandbox';
import { benchWorkflow, type BenchWorkflow, type Branch, type Measured } from './benchWorkflow';
import { measuredN8n, type E2E, type OutputItem, type WorkflowNode } from './e2e';
import { log, quiet, type BenchState } from './figures';
import { rawRound } from './raw';
import { newTransaction, serviceStats, type Endpoint, type EndpointKey, type ServiceStats } from './sandboxes';
import { GETS, JITTER, LARGE, LINK_GETS, PAYOUTS, SLOW_MS, SMALL, SWEEP } from './settings';

export interface NodeRun {
	/** n8n's executionTime of the node, ms. */
	ms: number;
	stats: ServiceStats;
}

export interface N8nResults {
	nodeBin: string;
	nodeVersion: string;
	n8nVersion: string;
	runs: Record<string, NodeRun[]>;
	/** Peak resident memory of `n8n execute`, KB (one run each). */
	rss: Record<string, number>;
}

export async function n8nFigures(state: BenchState, e2e: E2E, endpoints: Partial<Record<EndpointKey, Endpoint>>, certificate: SelfSignedCertificate | undefined, defaultBatch: number, workDir: string): Promise<N8nResults> {
	const installed = await e2e.install.ensureInstalled();
	// The HTTPS sandbox's certificate, trusted as a private CA is; no check is turned off.
	const { n8n, rssDir } = await measuredN8n(e2e, state.settings, workDir, '', certificate ? { NODE_EXTRA_CA_CERTS: certificate.certFile } : {});
	try {
		const all = Object.values(endpoints).filter((e): e is Endpoint => e !== undefined);
		await n8n.importCredentials(
			all.map((e) => ({ id: e.credential.id, name: e.credential.name, type: e2e.n8n.CREDENTIAL_TYPE, data: { apiKey: e.sandbox.apiKey, baseUrl: e.url, webhookSecret: '', processes: 'one' } })),
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
			await quiet(state, label);
			log(state, label);
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
			log(state, `  ${((Date.now() - began) / 1000).toFixed(1)} s: ${summary.join(', ')}`);
			const rss = fs
				.readdirSync(rssDir)
				.map((file) => JSON.parse(fs.readFileSync(path.join(rssDir, file), 'utf8')) as { argv: string[]; maxRssKb: number })
				.find((entry) => entry.argv.includes('execute') && entry.argv[0] === n8n.install.n8nBin);
			if (rss) results.rss[workflow.json.id] = rss.maxRssKb;
			for (const e of workflow.endpoints) e.sandbox.clearRequests();
		};

		const { runs } = state.settings;
		for (let run = 0; run < runs; run++) {
			await execute(atZero, `n8n run ${run + 1}/${runs}: ${atZero.json.name}`);
			await execute(atSlow, `n8n run ${run + 1}/${runs}: ${atSlow.json.name}`);
			await rawRound(state, installed.nodeBin, installed.n8nModules, endpoints, defaultBatch, run);
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
