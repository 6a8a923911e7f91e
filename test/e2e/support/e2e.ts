/** What most e2e files share: a sandbox in this process and an n8n with the credential. */
import { randomUUID } from 'crypto';

import { signBody, startSandbox, type Sandbox, type SandboxOptions } from '../../../tooling/sandbox';
import { ended, type ApiExecution } from '../../../tooling/n8n/executions';
import { N8n, type N8nOptions, type WalletCredentialData } from '../../../tooling/n8n/n8n';
import { payPerEventWorkflow } from '../../../tooling/n8n/workflow';

export { ended, executionWhen, type ApiExecution } from '../../../tooling/n8n/executions';

/** e2e files run only under test/jest/e2e.config.js (its globalSetup installs n8n and packs). */
export const describeE2E: jest.Describe = process.env.WALLET_E2E ? describe : describe.skip;

export interface Stack {
	sandbox: Sandbox;
	n8n: N8n;
}

/**
 * A single `n8n start` (the e2e suite), or, when WALLET_QUEUE_MODE is set (the queue-mode suite,
 * test/jest/queue.config.js), n8n in queue mode behind the same interface: a main, two workers and two
 * webhook processors on PostgreSQL and Redis (test/queue/support/cluster.ts). The e2e files that
 * the queue suite runs are the same files, unchanged.
 */
export async function createN8n(options: N8nOptions = {}): Promise<N8n> {
	if (!process.env.WALLET_QUEUE_MODE) return await N8n.create(options);
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { QueueN8n } = require('../../queue/support/cluster') as typeof import('../../queue/support/cluster');
	return await QueueN8n.createQueue(options);
}

/**
 * Starts the sandbox (127.0.0.1, a free port) and prepares an n8n user folder with the package
 * installed and the Wallet Payments credential imported (pointing at the sandbox).
 */
export async function startStack(
	sandboxOptions: SandboxOptions = {},
	n8nOptions: N8nOptions = {},
	/** More credential fields (e.g. payment limits). */
	credential: Partial<WalletCredentialData> = {},
): Promise<Stack> {
	const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, ...sandboxOptions });
	let n8n: N8n | undefined;
	try {
		n8n = await createN8n(n8nOptions);
		await n8n.importWalletCredential({
			apiKey: sandbox.apiKey,
			baseUrl: sandbox.url,
			webhookSecret: sandboxOptions.webhook?.secret ?? 'whsec_sandbox',
			// Queue mode: the credential as a user creates it (records are claims across processes).
			// One n8n process: One Process Only, as the README recommends there (no claim wait);
			// defaults.e2e.test.ts runs one process with the credential as created.
			...(process.env.WALLET_QUEUE_MODE ? {} : { processes: 'one' as const }),
			...credential,
		});
		return { sandbox, n8n };
	} catch (error) {
		await n8n?.dispose();
		await sandbox.close();
		throw error;
	}
}

export async function stopStack(stack: Partial<Stack> | undefined): Promise<void> {
	if (!stack) return;
	try {
		await stack.n8n?.dispose();
	} finally {
		// Also when dispose throws (a queue cluster's check): an open sandbox keeps jest alive.
		await stack.sandbox?.close();
	}
}

/** The API requests the sandbox received (path and method), for compact assertions. */
export function calls(sandbox: Sandbox): string[] {
	return sandbox.requests.map((r) => `${r.method} ${r.path}`);
}

/** An execution as n8n's public API lists it (with `includeData=true`). */
/** The sandbox's own API, called as another system would (set-ups); the answer's `data`. */
export async function sandboxApi<T = Record<string, unknown>>(sandbox: Sandbox, method: string, path: string, body?: unknown): Promise<T> {
	const response = await fetch(`${sandbox.url}${path}`, {
		method,
		headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const parsed = (await response.json()) as { data: T };
	if (response.status !== 200) throw new Error(`${method} ${path} → ${response.status}: ${JSON.stringify(parsed)}`);
	return parsed.data;
}

/** A signed-to-be trigger delivery that pays one fresh payee: its body, event ID and beneficiary. */
export interface PayeeEvent {
	body: string;
	eventId: string;
	beneficiaryId: string;
}

/**
 * A distinct event (number `n`) for the trigger de-duplication tests: a new beneficiary in the
 * sandbox, and the event that asks the workflow behind the trigger to pay it.
 */
export async function newPayeeEvent(sandbox: Sandbox, n: number): Promise<PayeeEvent> {
	const beneficiary = await sandboxApi<{ id: string }>(sandbox, 'POST', '/api/v2/beneficiaries', {
		country: 'KE',
		currency: 'KES',
		customerEmail: `payee${n}@example.com`,
		destination: { type: 'MOBILEMONEY', network: 'MPESA', accountName: `Payee ${n}`, accountNumber: '254712345678' },
	});
	const eventId = `evt-${n}-${randomUUID()}`;
	const body = JSON.stringify({
		event: 'payroll.payee.approved',
		data: { id: eventId, status: 'approved', beneficiaryId: beneficiary.id, amount: 1000 + n, email: `payee${n}@example.com` },
	});
	return { body, eventId, beneficiaryId: beneficiary.id };
}


/** Every execution of a workflow (all pages of the public API), oldest first, with its data. */
export async function executionsOf(n8n: N8n, workflowId: string): Promise<ApiExecution[]> {
	const all: ApiExecution[] = [];
	let cursor: string | undefined;
	do {
		const response = await n8n.publicApi<{ data: ApiExecution[]; nextCursor?: string | null }>(
			'GET',
			`/executions?workflowId=${workflowId}&includeData=true&limit=250${cursor ? `&cursor=${cursor}` : ''}`,
		);
		if (response.status !== 200) throw new Error(`GET /api/v1/executions → ${response.status}: ${JSON.stringify(response.body)}`);
		all.push(...response.body.data);
		cursor = response.body.nextCursor ?? undefined;
	} while (cursor);
	return all.sort((a, b) => Number(a.id) - Number(b.id));
}

/** Waits until the workflow has `count` executions (or more) and none is still running. */
export async function waitForExecutions(n8n: N8n, workflowId: string, count: number, timeoutMs = 30000): Promise<ApiExecution[]> {
	const deadline = Date.now() + timeoutMs;
	let last: ApiExecution[] = [];
	while (Date.now() < deadline) {
		last = await executionsOf(n8n, workflowId);
		if (last.length >= count && last.every(ended)) return last;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	throw new Error(`Expected ${count} finished executions of ${workflowId}, have ${JSON.stringify(last.map((e) => [e.id, e.status]))}`);
}

/**
 * The workflow's executions once none runs and their number stayed the same for 1.5 s, with at
 * least `atLeast` of them (deliveries that start runs a moment later are counted too).
 */
export async function settledExecutions(n8n: N8n, workflowId: string, atLeast: number, timeoutMs = 60000): Promise<ApiExecution[]> {
	const deadline = Date.now() + timeoutMs;
	let last: ApiExecution[] = [];
	let stableSince = Date.now();
	while (Date.now() < deadline) {
		const now = await executionsOf(n8n, workflowId);
		const finished = now.every(ended);
		if (!finished || now.length !== last.length) stableSince = Date.now();
		else if (now.length >= atLeast && Date.now() - stableSince > 1500) return now;
		last = now;
		await new Promise((resolve) => setTimeout(resolve, 300));
	}
	throw new Error(`Executions did not settle: ${JSON.stringify(last.map((e) => [e.id, e.status]))}`);
}

/** How many times each value occurs, e.g. HTTP statuses → {200: 5, 500: 1}. */
export function tally(values: number[]): Record<number, number> {
	return values.reduce<Record<number, number>>((all, v) => ({ ...all, [v]: (all[v] ?? 0) + 1 }), {});
}

/** The event IDs the Wallet Payments Trigger let through to the rest of the workflow in an execution. */
export function eventsPastTrigger(execution: ApiExecution): string[] {
	return (execution.data?.resultData.runData['Wallet Payments Trigger']?.[0]?.data?.main[0] ?? []).map((item) => (item.json.data as { id: string }).id);
}

/** Waits until a published workflow's production webhook is served (n8n answers 404 before). */
export async function webhookServed(n8n: N8n, url: string, timeoutMs = 30000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while ((await fetch(url, { method: 'POST', body: '{}' })).status === 404) {
		if (Date.now() > deadline) throw new Error(`The production webhook stayed 404:\n${n8n.log}`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/** A trigger delivery signed as the sandbox signs events (sha512 in `header`): n8n's HTTP status. */
export async function deliverSigned(url: string, body: string, secret: string, header: string): Promise<number> {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', [header]: signBody(body, secret, 'sha512') },
		body,
		signal: AbortSignal.timeout(60000),
	});
	await response.text();
	return response.status;
}

/** Every event delivered `copies` times, all at once, signed: the answers' statuses. */
export async function deliverCopies(url: string, events: PayeeEvent[], copies: number, secret: string, header: string): Promise<number[]> {
	return await Promise.all(
		events.flatMap((event) => Array.from({ length: copies }, async () => await deliverSigned(url, event.body, secret, header))),
	);
}

/**
 * A sandbox and an n8n with a published workflow that pays one payee per trigger event
 * (payPerEventWorkflow), started, its production webhook served.
 */
export async function startPayPerEvent(
	workflow: { id: string; name: string; webhookId: string; secret: string; header: string; dedupeWindow?: number; verifySignature?: boolean },
	n8nOptions: N8nOptions = {},
	startTimeoutMs?: number,
	credential: Partial<WalletCredentialData> = {},
): Promise<{ stack: Stack; url: string }> {
	const stack = await startStack({ webhook: { secret: workflow.secret, header: workflow.header, algorithm: 'sha512', retryDelaysMs: [] } }, n8nOptions, credential);
	const { n8n } = stack;
	const url = `${n8n.baseUrl}/webhook/${workflow.webhookId}/webhook`;
	try {
		await n8n.importWorkflows([payPerEventWorkflow(workflow.id, workflow.name, workflow.webhookId, workflow.header, workflow.dedupeWindow, workflow.verifySignature)]);
		await n8n.publishWorkflow(workflow.id);
		await n8n.start({ timeoutMs: startTimeoutMs });
		await webhookServed(n8n, url);
	} catch (error) {
		// The caller never gets the stack to stop: stop it here (its sandbox would keep jest alive).
		await stopStack(stack);
		throw error;
	}
	return { stack, url };
}

/**
 * n8n's options for one process on the private PostgreSQL's `n8n` database (created first): a user
 * folder of its own, as the prepared one holds a SQLite database.
 */
export function n8nOnPostgres(port: number): { template: string; env: Record<string, string> } {
	return {
		template: '',
		env: {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(port),
			DB_POSTGRESDB_DATABASE: 'n8n',
			DB_POSTGRESDB_USER: 'postgres',
			DB_POSTGRESDB_PASSWORD: '',
		},
	};
}
