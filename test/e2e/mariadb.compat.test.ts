/**
 * n8n 1.x on MariaDB (Debian's mariadb-server, strict mode as installed), issue #32: n8n keeps a
 * node's duplicate records in one TEXT column, 64 KB there. The Wallet Payments Trigger's records
 * fit (a window of 1,000 events), and its de-duplication holds, across a restart too; a
 * money-moving node would keep up to 620,000 and refuses, before anything is sent
 * (nodes/shared/ledger/capacity.ts). n8n 2.x runs on PostgreSQL and SQLite only: skipped there.
 *
 *   mariadb[n8n <version>, <case>]: ...
 */
import { randomUUID } from 'crypto';

import { signBody } from '../sandbox';
import { ensureMariadb, mariadbQuery, startMariadb, type Service } from '../queue/support/services';
import { executionsOf, newPayeeEvent, startStack, stopStack, type ApiExecution, type PayeeEvent, type Stack } from './support/e2e';
import { payPerEventWorkflow } from './support/workflow';

const WORKFLOW_ID = 'WalletE2eMaria01';
const WEBHOOK_ID = randomUUID();
const SECRET = 'whsec_mariadb';
const HEADER = 'x-wallet-signature';
const EVENTS = 3;
const COPIES = 3;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const onOneX = (process.env.N8N_E2E_N8N_VERSION ?? '').startsWith('1.');
const describeMaria = process.env.WALLET_E2E && onOneX ? describe : describe.skip;

describeMaria('n8n 1.x on MariaDB: the trigger’s records fit; a money-moving node refuses before it sends', () => {
	let mariadb: Service | undefined;
	let stack: Stack | undefined;
	let url = '';
	const lines: string[] = [];
	const events: PayeeEvent[] = [];

	async function deliver(sent: PayeeEvent): Promise<number> {
		const response = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json', [HEADER]: signBody(sent.body, SECRET, 'sha512') },
			body: sent.body,
			signal: AbortSignal.timeout(60000),
		});
		await response.text();
		return response.status;
	}

	const passedEvents = (execution: ApiExecution) =>
		(execution.data?.resultData.runData['Wallet Payments Trigger']?.[0]?.data?.main[0] ?? []).map(
			(item) => (item.json.data as { id: string }).id,
		);
	const payouts = () => stack!.sandbox.state.transactions.filter((tx) => tx.kind === 'payout').length;

	async function settled(atLeast: number, timeoutMs = 90000): Promise<ApiExecution[]> {
		const deadline = Date.now() + timeoutMs;
		let last: ApiExecution[] = [];
		let stableSince = Date.now();
		while (Date.now() < deadline) {
			const now = await executionsOf(stack!.n8n, WORKFLOW_ID);
			const finished = now.every((e) => e.status !== 'running' && e.status !== 'new');
			if (!finished || now.length !== last.length) stableSince = Date.now();
			else if (now.length >= atLeast && Date.now() - stableSince > 1500) return now;
			last = now;
			await sleep(300);
		}
		throw new Error(`Executions did not settle: ${JSON.stringify(last.map((e) => [e.id, e.status]))}`);
	}

	async function published(): Promise<void> {
		const deadline = Date.now() + 30000;
		while ((await fetch(url, { method: 'POST', body: '{}' })).status === 404) {
			if (Date.now() > deadline) throw new Error(`The production webhook stayed 404:\n${stack!.n8n.log}`);
			await sleep(250);
		}
	}

	beforeAll(async () => {
		const bin = ensureMariadb((line) => process.stderr.write(`${line}\n`));
		mariadb = await startMariadb(bin, { parentDir: process.env.WALLET_E2E_RUN_DIR });
		mariadbQuery(mariadb.port, 'CREATE DATABASE n8n CHARACTER SET utf8mb4');
		stack = await startStack(
			{ webhook: { secret: SECRET, header: HEADER, algorithm: 'sha512', retryDelaysMs: [] } },
			{
				// A user folder of its own: the prepared one holds a SQLite database.
				template: '',
				env: {
					DB_TYPE: 'mariadb',
					DB_MYSQLDB_HOST: '127.0.0.1',
					DB_MYSQLDB_PORT: String(mariadb.port),
					DB_MYSQLDB_DATABASE: 'n8n',
					DB_MYSQLDB_USER: 'root',
					DB_MYSQLDB_PASSWORD: '',
				},
			},
		);
		const { n8n } = stack;
		url = `${n8n.baseUrl}/webhook/${WEBHOOK_ID}/webhook`;
		await n8n.importWorkflows([payPerEventWorkflow(WORKFLOW_ID, 'E2E on MariaDB', WEBHOOK_ID, HEADER)]);
		await n8n.publishWorkflow(WORKFLOW_ID);
		await n8n.start({ timeoutMs: 240000 });
		await published();
		for (let i = 1; i <= EVENTS; i++) events.push(await newPayeeEvent(stack.sandbox, i));
	});

	afterAll(async () => {
		if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
		await stopStack(stack);
		await mariadb?.stop();
	});

	test(`${EVENTS} events × ${COPIES} copies at once: one run per event; each run's payout refused before it is sent`, async () => {
		const { n8n } = stack!;
		const statuses = await Promise.all(events.flatMap((event) => Array.from({ length: COPIES }, () => deliver(event))));
		const runs = await settled(EVENTS);
		const passed = runs.flatMap(passedEvents);
		// The run's error, or the Pay node's (either holds n8n's message).
		const errors = runs.map((run) => JSON.stringify(run.data?.resultData ?? {}));
		lines.push(
			`mariadb[n8n ${n8n.n8nVersion}, ${EVENTS} events × ${COPIES} at once]: ${runs.length} runs, ${passed.length} past the trigger, ` +
				`${errors.filter((text) => text.includes('cannot keep')).length} refused at Pay, ${payouts()} payouts`,
		);
		expect(statuses.every((status) => status === 200)).toBe(true);
		expect(runs).toHaveLength(EVENTS);
		expect([...passed].sort()).toEqual(events.map((event) => event.eventId).sort());
		expect(errors.every((text) => text.includes('n8n’s database cannot keep this node’s duplicate records'))).toBe(true);
		expect(payouts()).toBe(0);
		// The trigger's records are in n8n's table, under 64 KB.
		const sizes = mariadbQuery(mariadb!.port, 'SELECT LENGTH(value) FROM processed_data', 'n8n').split('\n').map(Number);
		expect(Math.max(...sizes)).toBeLessThan(65535);
	});

	test('after n8n restarts, the same copies again: nothing goes past the trigger', async () => {
		const { n8n } = stack!;
		await n8n.stop();
		await n8n.start({ timeoutMs: 240000 });
		await published();
		const before = (await executionsOf(n8n, WORKFLOW_ID)).length;
		const statuses = await Promise.all(events.flatMap((event) => Array.from({ length: COPIES }, () => deliver(event))));
		const fresh = (await settled(before + EVENTS)).slice(before);
		const passed = fresh.flatMap(passedEvents);
		lines.push(`mariadb[n8n ${n8n.n8nVersion}, the same after a restart]: ${fresh.length} runs, ${passed.length} past the trigger, ${payouts()} payouts`);
		expect(statuses.every((status) => status === 200)).toBe(true);
		expect(fresh).toHaveLength(EVENTS);
		expect(passed).toEqual([]);
		expect(payouts()).toBe(0);
	});
});
