/**
 * n8n in queue mode (2.x; 1.x for what only 1.x does: stalled.queue.test.ts), as a self-hosting
 * team runs it, in place of the e2e suite's single `n8n start`: one main (`n8n start`,
 * EXECUTIONS_MODE=queue), two workers (`n8n worker`) and two webhook processors (`n8n webhook`),
 * on one PostgreSQL database and one Redis (started by globalSetup), sharing one user folder
 * (the package installed once, the way n8n installs a community package) and one encryption key.
 *
 * `QueueN8n` is an `N8n` (tooling/n8n/n8n.ts), so the e2e test files run unchanged on it
 * (`startStack` makes one when WALLET_QUEUE_MODE is set):
 *  - `baseUrl` is a small reverse proxy, the load balancer of a real set-up: `/webhook/…` and
 *    `/webhook-waiting/…` go to the webhook processors in turn (round robin), everything else to the main (which is started
 *    with N8N_DISABLE_PRODUCTION_MAIN_PROCESS=true, so it serves no production webhook itself);
 *  - `execute(id)` runs the workflow the way the editor's "Execute workflow" does
 *    (`POST /rest/workflows/<id>/run`), with OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true, so the run
 *    happens on a worker (`n8n execute` would run it in its own process), and checks that a worker
 *    ran it;
 *  - `start()` starts all five processes, `stop()` stops them; `publishWorkflow` while running
 *    publishes through the public API (a CLI publish takes effect only at the next start).
 *
 * Which process ran an execution is read from n8n's own log lines: the main or a webhook
 * processor logs `Enqueued execution <id> (job <n>)`, the worker that takes it
 * `Worker started execution <id> (job <n>)`.
 */
import { randomBytes } from 'crypto';
import * as http from 'http';

import { executionWhen } from '../../../tooling/n8n/executions';
import { freePorts } from '../../../tooling/n8n/ports';
import type { CliResult, ExecutionResult, N8nOptions } from '../../../tooling/n8n/n8n';
import { ClusterProcesses } from './clusterProcesses';
import { QUEUE_CONFIG, queueLabel } from './config';
import { loadBalancer } from './loadBalancer';
import { queueServicesFromEnv, type ClusterProcess } from './queueEnv';
import { psql } from './services';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface QueueN8nOptions extends N8nOptions {
	workers?: number;
	/** Webhook processors behind the load balancer (the proxy), default 2. */
	webhookProcessors?: number;
	/** Every process is stopped after this long, whatever happens (default 40 minutes). */
	maxLifetimeMs?: number;
}

export class QueueN8n extends ClusterProcesses {
	private proxy?: http.Server;
	/** Executions started through execute(), for the summary. */
	executedThroughApi = 0;

	/** A queue-mode n8n: user folder (from the e2e template), its own database and Redis prefix. */
	static async createQueue(options: QueueN8nOptions = {}): Promise<QueueN8n> {
		const services = queueServicesFromEnv();
		const n8n = (await QueueN8n.create(options)) as QueueN8n;
		n8n.services = services;
		n8n.maxLifetimeMs = options.maxLifetimeMs ?? Number(process.env.WALLET_QUEUE_MAX_LIFETIME_MS ?? 40 * 60 * 1000);
		const suffix = randomBytes(4).toString('hex');
		n8n.database = `n8n_${suffix}`;
		n8n.prefix = `bull${suffix}`;
		psql(services.postgresPort, 'postgres', `CREATE DATABASE ${n8n.database} TEMPLATE ${services.templateDatabase}`);
		const workers = options.workers ?? 2;
		const webhookProcessors = options.webhookProcessors ?? 2;
		const ports = await freePorts(2 + webhookProcessors * 2 + workers * 2);
		let next = 0;
		const take = () => ports[next++];
		n8n.processes.push({ name: 'main', role: 'main', port: take(), brokerPort: take(), log: '' });
		for (let i = 1; i <= webhookProcessors; i++) n8n.processes.push({ name: `webhook${i}`, role: 'webhook', port: take(), brokerPort: take(), log: '' });
		for (let i = 1; i <= workers; i++) n8n.processes.push({ name: `worker${i}`, role: 'worker', port: take(), brokerPort: take(), log: '' });
		return n8n;
	}

	/**
	 * Where production webhooks are called: the load balancer (the proxy), which sends each
	 * request to the next webhook processor in turn, as a round-robin load balancer does.
	 */
	get webhookBaseUrl(): string {
		return this.baseUrl;
	}

	private nextWebhookProcessor = 0;

	/** The next running webhook processor, in turn. */
	private webhookTarget(): ClusterProcess {
		const all = this.webhookProcessors;
		for (let tried = 0; tried < all.length; tried++) {
			const proc = all[this.nextWebhookProcessor++ % all.length];
			if (this.alive(proc)) return proc;
		}
		return all[0];
	}

	private startProxy(): Promise<void> {
		if (this.proxy) return Promise.resolve();
		const { server, listening } = loadBalancer(this.port, (webhook) => (webhook ? this.webhookTarget() : this.main));
		this.proxy = server;
		return listening;
	}

	/** The main first (it owns activation), then the webhook processors and the workers together. */
	override async start(): Promise<void> {
		await this.startProxy();
		await this.startProcess(this.main);
		await this.ownerFirst(Date.now() + 120000);
		await Promise.all(this.processes.filter((p) => p.role !== 'main').map(async (p) => await this.startProcess(p)));
	}

	override async stop(): Promise<void> {
		const others = this.processes.filter((p) => p.role !== 'main');
		await Promise.all(others.map(async (p) => await this.stopProcess(p)));
		await this.stopProcess(this.main);
		await super.stop(); // forgets the session and API key
	}

	override async publishWorkflow(workflowId: string): Promise<void> {
		if (this.running) await this.publishNow(workflowId);
		else await super.publishWorkflow(workflowId);
	}

	/**
	 * Waits until every webhook processor serves `/webhook/<path>` (CORS preflight, which starts no
	 * execution). Right after a publish the processor answers 500 "The requested webhook … is not
	 * registered" (a single `n8n start` answers 404) until it has the webhook: both mean "not yet".
	 */
	override async waitForWebhook(webhookPath: string, method = 'POST', timeoutMs = 30000): Promise<void> {
		for (const base of this.webhookProcessorUrls) await this.waitForWebhookAt(`${base}/webhook/${webhookPath}`, method, timeoutMs);
	}

	private async waitForWebhookAt(url: string, method: string, timeoutMs: number): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		let last = '';
		while (Date.now() < deadline) {
			const response = await fetch(url, { method: 'OPTIONS', headers: { origin: 'http://127.0.0.1', 'access-control-request-method': method } });
			const text = await response.text();
			if (response.status >= 200 && response.status < 300) return;
			last = `${response.status} ${text.slice(0, 200)}`;
			if (response.status !== 404 && !(response.status === 500 && text.includes('is not registered'))) break;
			await sleep(200);
		}
		throw new Error(`The production webhook ${url} is not served: ${last}\n${this.log}`);
	}

	/** The trigger "Execute workflow" starts from: a Manual Trigger, else the first trigger. */
	private async startNode(workflowId: string): Promise<string> {
		const response = await this.rest<{ data: { nodes: Array<{ name: string; type: string; disabled?: boolean }> } }>('GET', `/workflows/${workflowId}`);
		if (response.status !== 200) throw new Error(`GET /rest/workflows/${workflowId} → ${response.status}: ${JSON.stringify(response.body)}`);
		const nodes = response.body.data.nodes.filter((n) => !n.disabled);
		const manual = nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
		const trigger = manual ?? nodes.find((n) => /trigger$/i.test(n.type));
		if (!trigger) throw new Error(`Workflow ${workflowId} has no trigger to start from`);
		return trigger.name;
	}

	/** One execution, once finished (public API, with its data). */
	async finishedExecution(executionId: string, timeoutMs = 180000): Promise<ExecutionResult & { id: string }> {
		return (await executionWhen(this, executionId, { timeoutMs })) as unknown as ExecutionResult & { id: string };
	}

	/** Waits until a worker's log says it ran the execution; returns the worker's name. */
	async workerOf(executionId: string, timeoutMs = 10000): Promise<string> {
		const deadline = Date.now() + timeoutMs;
		while (!this.ranOn.has(executionId)) {
			if (Date.now() > deadline) throw new Error(`No worker ran execution ${executionId} (it did not run in queue mode):\n${this.log}`);
			await sleep(100);
		}
		return this.ranOn.get(executionId)!;
	}

	/**
	 * "Execute workflow", as the editor does it (`POST /rest/workflows/<id>/run`): in queue mode
	 * with OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS a worker runs it. The result has the shape of
	 * `n8n execute --rawOutput`'s, so the e2e files' assertions apply unchanged.
	 */
	override async execute(workflowId: string): Promise<ExecutionResult & { cli: CliResult }> {
		if (!this.running) await this.start();
		const name = await this.startNode(workflowId);
		const started = await this.rest<{ data: { executionId?: string } }>('POST', `/workflows/${workflowId}/run`, {
			triggerToStartFrom: { name },
		});
		const executionId = started.body.data?.executionId;
		if (started.status !== 200 || !executionId) {
			throw new Error(`POST /rest/workflows/${workflowId}/run → ${started.status}: ${JSON.stringify(started.body)}`);
		}
		const execution = await this.finishedExecution(executionId);
		await this.workerOf(executionId);
		this.executedThroughApi++;
		const cli: CliResult = { code: execution.status === 'success' ? 0 : 1, signal: null, stdout: '', stderr: '' };
		return Object.assign(execution, { cli });
	}

	/** Every execution in this cluster's database (id, status), oldest first; of one workflow if given. */
	executionsInDatabase(workflowId?: string): Array<{ id: string; status: string }> {
		if (workflowId !== undefined && !/^[A-Za-z0-9]+$/.test(workflowId)) throw new Error(`Bad workflow id ${workflowId}`);
		const where = workflowId === undefined ? '' : ` WHERE "workflowId" = '${workflowId}'`;
		const out = psql(this.services.postgresPort, this.database, `SELECT id, status FROM execution_entity${where} ORDER BY id`);
		return out
			.split('\n')
			.filter(Boolean)
			.map((line) => {
				const [id, status] = line.split('|');
				return { id, status };
			});
	}

	/** Executions per worker, from the workers' logs. */
	workerCounts(): Record<string, number> {
		return { ...Object.fromEntries(this.workers.map((w) => [w.name, 0])), ...this.workersOf([...this.ranOn.keys()]) };
	}

	/** Executions per worker ('none': not seen on a worker), for the executions given. */
	workersOf(ids: string[]): Record<string, number> {
		const counts: Record<string, number> = {};
		for (const id of ids) {
			const worker = this.ranOn.get(id) ?? 'none';
			counts[worker] = (counts[worker] ?? 0) + 1;
		}
		return counts;
	}

	/** A name for the summary line: the test file's, or what the test set. */
	label = '';

	private summaryLabel(): string {
		if (this.label) return this.label;
		const state = (globalThis as { expect?: { getState?: () => { testPath?: string } } }).expect?.getState?.();
		return state?.testPath ? state.testPath.split(/[\\/]/).pop()!.replace(/\.test\.ts$/, '') : 'cluster';
	}

	/**
	 * Stops everything and drops the database; before that, checks that every execution in the
	 * database ran on a worker (throws otherwise, after cleaning up) and prints one line:
	 *   queue[<label>,<config>]: <n> executions, <n> run by a worker (worker1: a, worker2: b), 0 not
	 */
	override async dispose(): Promise<void> {
		let problem: string | undefined;
		try {
			if (this.database) {
				const executions = this.executionsInDatabase();
				// A worker's log line can trail its last execution by a moment.
				const deadline = Date.now() + 5000;
				while (executions.some((e) => !this.ranOn.has(e.id)) && Date.now() < deadline) await sleep(200);
				const notOnWorker = executions.filter((e) => !this.ranOn.has(e.id));
				// At n8n's default pool a burst fails some executions in n8n before a worker takes them
				// (expectNoPackageFailures); one that did not fail and ran on no worker ran elsewhere.
				const n8nOwn = QUEUE_CONFIG === 'defaults' ? notOnWorker.filter((e) => e.status === 'error') : [];
				const counts = Object.entries(this.workerCounts()).map(([name, n]) => `${name}: ${n}`).join(', ');
				process.stdout.write(
					`\n${queueLabel(this.summaryLabel())}: ${executions.length} executions, ${executions.length - notOnWorker.length} run by a worker (${counts}), ${notOnWorker.length} not` +
						`${n8nOwn.length > 0 ? ` (${n8nOwn.length} failed in n8n before reaching one)` : ''}\n`,
				);
				if (notOnWorker.length > n8nOwn.length) problem = `Executions not run by a worker: ${JSON.stringify(notOnWorker)}`;
			}
		} finally {
			await this.cleanUp();
		}
		if (problem) throw new Error(problem);
	}

	private async cleanUp(): Promise<void> {
		await this.stop();
		if (this.proxy) {
			const proxy = this.proxy;
			this.proxy = undefined;
			proxy.closeAllConnections();
			await new Promise<void>((resolve) => proxy.close(() => resolve()));
		}
		if (this.database) {
			try {
				psql(this.services.postgresPort, 'postgres', `DROP DATABASE IF EXISTS ${this.database} WITH (FORCE)`);
			} catch {
				// the server is gone already: its folder goes with it
			}
		}
		await super.dispose();
	}
}
