/** What the queue-mode test files share: their cluster, webhook workflows, counts and results. */
import { randomUUID } from 'crypto';
import * as fs from 'fs';
import * as net from 'net';
import * as path from 'path';

import type { Sandbox, SandboxOptions } from '../../../tooling/sandbox';
import { executionsOf, startStack, type ApiExecution } from '../../e2e/support/e2e';
import { postJson } from '../../../tooling/n8n/http';
import { payPerEventWorkflow } from '../../../tooling/n8n/workflow';
import { installPaths, REPO_ROOT } from '../../../tooling/n8n/install';
import type { N8nOptions, WorkflowJson } from '../../../tooling/n8n/n8n';
import { QueueN8n } from './cluster';
import { QUEUE_CONFIG } from './config';
import { payoutsPerBeneficiary, type Payee } from './payees';
import { psql } from './services';

export * from './payees';

export const describeQueue: jest.Describe = process.env.WALLET_QUEUE_MODE ? describe : describe.skip;

export interface QueueStack {
	sandbox: Sandbox;
	n8n: QueueN8n;
}

/** The sandbox and a queue-mode n8n (main, two workers, two webhook processors), not yet started. */
export async function startQueueStack(sandboxOptions: SandboxOptions = {}, n8nOptions: N8nOptions = {}): Promise<QueueStack> {
	const stack = await startStack(sandboxOptions, n8nOptions);
	if (!(stack.n8n instanceof QueueN8n)) throw new Error('Not in queue mode: run with test/jest/queue.config.js');
	return { sandbox: stack.sandbox, n8n: stack.n8n };
}

/**
 * A queue stack with the trigger's pay-per-event workflow published (a Wallet Payments Trigger
 * checking signatures with `secret` in `header`, a payout per event): the stack and the
 * trigger's production URL, through the load balancer.
 */
export async function startPayPerEventQueue(
	workflow: { id: string; name: string; secret: string; header: string; webhookId?: string },
	n8nOptions: N8nOptions = {},
): Promise<{ stack: QueueStack; url: string }> {
	const stack = await startQueueStack({ references: 'lenient', webhook: { secret: workflow.secret, header: workflow.header, algorithm: 'sha512', retryDelaysMs: [] } }, n8nOptions);
	const webhookId = workflow.webhookId ?? randomUUID();
	const { n8n } = stack;
	await n8n.importWorkflows([payPerEventWorkflow(workflow.id, workflow.name, webhookId, workflow.header)]);
	await n8n.start();
	await n8n.publishNow(workflow.id);
	await n8n.waitForWebhook(`${webhookId}/webhook`);
	return { stack, url: `${n8n.webhookBaseUrl}/webhook/${webhookId}/webhook` };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));


/**
 * Waits until the workflow has `count` executions (or more) and none is running, waiting, or
 * new, polling the database (cheap while hundreds run); then returns them all with their data
 * (public API), oldest first.
 */
export async function settledExecutions(n8n: QueueN8n, workflowId: string, count: number, timeoutMs = 300000): Promise<ApiExecution[]> {
	const deadline = Date.now() + timeoutMs;
	let last: Array<{ id: string; status: string }> = [];
	for (;;) {
		last = n8n.executionsInDatabase(workflowId);
		const open = last.filter((e) => ['running', 'new', 'waiting'].includes(e.status));
		if (last.length >= count && open.length === 0) break;
		if (Date.now() > deadline) throw new Error(`Expected ${count} finished executions of ${workflowId}, have ${JSON.stringify(last)}`);
		await sleep(500);
	}
	return withStoredData(n8n, await executionsOf(n8n, workflowId));
}

/**
 * The executions with the data n8n stored for them. n8n 2.41's API empties every item of a run it
 * marked as using dynamic credentials, and it marks a run so when its check for them fails (a pool
 * timeout at n8n's default pool: "Could not check for resolvable credentials; redacting run for
 * everyone"), so a burst's counts would miss the events such runs let through. Those runs' data is
 * read from the database instead, with the `flatted` n8n stored it with.
 */
function withStoredData(n8n: QueueN8n, executions: ApiExecution[]): ApiExecution[] {
	const redacted = executions.filter((e) => (e.data as { redactionInfo?: unknown } | undefined)?.redactionInfo !== undefined);
	if (redacted.length === 0) return executions;
	const ids = redacted.map((e) => Number(e.id));
	if (!ids.every(Number.isInteger)) throw new Error(`Bad execution ids ${JSON.stringify(ids)}`);
	const out = psql(
		n8n.services.postgresPort,
		n8n.database,
		`SELECT "executionId", translate(encode(convert_to(data, 'UTF8'), 'base64'), E'\\n', '') FROM execution_data WHERE "executionId" IN (${ids.join(',')})`,
	);
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const flatted = require(require.resolve('flatted', { paths: [installPaths().n8nPackage] })) as { parse: (text: string) => ApiExecution['data'] };
	const stored = new Map(
		out
			.split('\n')
			.filter(Boolean)
			.map((line) => {
				const [id, data] = line.split('|');
				return [id, flatted.parse(Buffer.from(data, 'base64').toString('utf8'))] as const;
			}),
	);
	const missing = ids.filter((id) => !stored.has(String(id)));
	if (missing.length > 0) throw new Error(`No stored data for executions ${JSON.stringify(missing)}`);
	return executions.map((e) => (stored.has(String(e.id)) ? { ...e, data: stored.get(String(e.id)) } : e));
}

/**
 * Step 2 of the documented recovery after a worker died (docs/duplicate-protection.md): each row
 * reported `unknown` is looked up in the service (here the sandbox's own record, as a user reads
 * the dashboard); those not carried out are posted again to the workflow's webhook with Allow
 * Resend (`resend: true`), in a new run. Returns them, the post's status and, once settled, that run.
 */
export async function resendNotCarriedOut(
	stack: QueueStack,
	url: string,
	workflowId: string,
	payees: Payee[],
	unknown: Array<{ idempotencyKey?: unknown }>,
): Promise<{ notCarriedOut: Payee[]; status?: number; resent?: ApiExecution }> {
	const counts = payoutsPerBeneficiary(stack.sandbox);
	const byKey = new Map(payees.map((p) => [p.invoiceId, p]));
	const notCarriedOut = unknown.map((row) => byKey.get(String(row.idempotencyKey))!).filter((p) => (counts.get(p.beneficiaryId) ?? 0) === 0);
	if (notCarriedOut.length === 0) return { notCarriedOut };
	const before = stack.n8n.executionsInDatabase(workflowId).length;
	const status = await postJson(url, { payees: notCarriedOut.map((p) => ({ ...p, resend: true })) });
	if (status !== 200) return { notCarriedOut, status };
	const resent = (await settledExecutions(stack.n8n, workflowId, before + 1, 180000)).at(-1)!;
	return { notCarriedOut, status, resent };
}

/**
 * The failures a queue scenario allows. The trigger's own record never fails (its warning, counted
 * from the workers' logs), and no other node fails. With the README's pool every execution must
 * succeed. At n8n's defaults (a pool of 2) a burst makes n8n fail some executions itself: before
 * any node (in its webhook process, or as a worker took the job), or at the trigger without running it (measured
 * 2026-11-27: an error n8n's webhook process recorded on the execution after queuing it, answered
 * 5xx, rethrown by the worker 1 ms into the trigger's step, before the trigger's code ran). The
 * scenario's own counts (every event once, every payee paid once) still catch an event lost so.
 */
export function expectNoPackageFailures(n8n: QueueN8n, failed: Array<[string, string, string]>): void {
	expect(n8n.triggerNotRecorded).toEqual([]);
	expect(failed.filter(([, node]) => node !== '' && node !== 'Wallet Payments Trigger')).toEqual([]);
	if (QUEUE_CONFIG !== 'defaults') expect(failed).toEqual([]);
}

/** The error message of each execution that did not succeed: [id, node, message]. */
export function failures(executions: ApiExecution[]): Array<[string, string, string]> {
	return executions
		.filter((e) => e.status !== 'success')
		.map((e) => {
			const runData = e.data?.resultData.runData ?? {};
			const failed = Object.entries(runData).find(([, runs]) => runs.some((run) => run.error));
			const error = failed?.[1].find((run) => run.error)?.error;
			const top = (e.data?.resultData as { error?: { message?: string } } | undefined)?.error;
			return [e.id, failed?.[0] ?? '', `${e.status}: ${error?.message ?? top?.message ?? '(no error recorded)'} ${error?.description ?? ''}`.trim()];
		});
}

/** How many values n8n's de-duplication store holds per node (context) of a workflow. */
export function storeEntries(n8n: QueueN8n, workflowId: string): Record<string, number> {
	if (!/^[A-Za-z0-9]+$/.test(workflowId)) throw new Error(`Bad workflow id ${workflowId}`);
	const out = psql(
		n8n.services.postgresPort,
		n8n.database,
		`SELECT context, json_array_length((value::json)->'data') FROM processed_data WHERE "workflowId" = '${workflowId}'`,
	);
	return Object.fromEntries(
		out
			.split('\n')
			.filter(Boolean)
			.map((line) => {
				const [context, count] = line.split('|');
				return [context, Number(count)];
			}),
	);
}

export const RESULTS_FILE = process.env.WALLET_QUEUE_RESULTS ? path.resolve(REPO_ROOT, process.env.WALLET_QUEUE_RESULTS) : undefined;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Adds a section to the results file (WALLET_QUEUE_RESULTS, set by `npm run test:queue`). */
export function recordResults(section: string, data: unknown): void {
	if (!RESULTS_FILE) return;
	let all: Record<string, unknown> = {};
	try {
		all = JSON.parse(fs.readFileSync(RESULTS_FILE, 'utf8')) as Record<string, unknown>;
	} catch {
		// first section
	}
	// Sections of objects are merged: a file and the bench may each write part of one.
	const earlier = all[section];
	all[section] = isObject(earlier) && isObject(data) ? { ...earlier, ...data } : data;
	all.measuredAt = new Date().toISOString();
	fs.writeFileSync(RESULTS_FILE, `${JSON.stringify(all, null, 2)}\n`);
}

export type { WorkflowJson };

/**
 * A fault between a webhook trigger's answer and the start of its run: while on, every `every`-th
 * new execution row n8n inserts (the first step of starting a run, after the trigger's webhook()
 * returned) fails with "wallet-e2e injected fault", so n8n answers that delivery 500 ("There was a
 * problem executing the workflow") and no run starts. A PostgreSQL trigger on n8n's
 * execution_entity table; the count is a sequence (not undone with the failed insert).
 */
export function failExecutionStarts(n8n: QueueN8n, every: number): void {
	psql(
		n8n.services.postgresPort,
		n8n.database,
		`CREATE SEQUENCE IF NOT EXISTS wallet_e2e_fault_seq;
		CREATE OR REPLACE FUNCTION wallet_e2e_fault() RETURNS trigger AS $$
		BEGIN
			IF nextval('wallet_e2e_fault_seq') % ${Math.floor(every)} = 0 THEN
				RAISE EXCEPTION 'wallet-e2e injected fault: this run was not started';
			END IF;
			RETURN NEW;
		END $$ LANGUAGE plpgsql;
		DROP TRIGGER IF EXISTS wallet_e2e_fault ON execution_entity;
		CREATE TRIGGER wallet_e2e_fault BEFORE INSERT ON execution_entity FOR EACH ROW EXECUTE FUNCTION wallet_e2e_fault();`,
	);
}

/** Ends failExecutionStarts. */
export function stopFailingExecutionStarts(n8n: QueueN8n): void {
	psql(n8n.services.postgresPort, n8n.database, 'DROP TRIGGER IF EXISTS wallet_e2e_fault ON execution_entity;');
}

/** A Redis outage for `ms`: CLIENT PAUSE ALL, so every client's command waits until it ends. */
export async function pauseRedis(port: number, ms: number): Promise<void> {
	await new Promise<void>((resolve, reject) => {
		const socket = net.connect(port, '127.0.0.1', () => socket.write(`CLIENT PAUSE ${Math.floor(ms)} ALL\r\n`));
		socket.once('data', (answer) => {
			socket.end();
			if (answer.toString().startsWith('+OK')) resolve();
			else reject(new Error(`CLIENT PAUSE: ${answer.toString()}`));
		});
		socket.once('error', reject);
	});
}
