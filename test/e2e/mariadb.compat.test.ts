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

import { ensureMariadb, mariadbQuery, startMariadb, type Service } from '../queue/support/services';
import {
	eventsPastTrigger,
	executionsOf,
	newPayeeEvent,
	settledExecutions,
	deliverCopies,
	startPayPerEvent,
	stopStack,
	webhookServed,
	type PayeeEvent,
	type Stack,
} from './support/e2e';
import { N8N_MAJOR } from '../../tooling/n8n/install';

const WORKFLOW_ID = 'WalletE2eMaria01';
const WEBHOOK_ID = randomUUID();
const SECRET = 'whsec_mariadb';
const HEADER = 'x-wallet-signature';
const EVENTS = 3;
const COPIES = 3;

const describeMaria = process.env.WALLET_E2E && N8N_MAJOR < 2 ? describe : describe.skip;

describeMaria(
	'n8n 1.x on MariaDB: the trigger’s records fit; a money-moving node refuses before it sends',
	() => {
		let mariadb: Service | undefined;
		let stack: Stack | undefined;
		let url = '';
		const lines: string[] = [];
		const events: PayeeEvent[] = [];

		const payouts = () =>
			stack!.sandbox.state.transactions.filter((tx) => tx.kind === 'payout').length;

		beforeAll(async () => {
			const bin = ensureMariadb((line) => process.stderr.write(`${line}\n`));
			mariadb = await startMariadb(bin, { parentDir: process.env.WALLET_E2E_RUN_DIR });
			mariadbQuery(mariadb.port, 'CREATE DATABASE n8n CHARACTER SET utf8mb4');
			({ stack, url } = await startPayPerEvent(
				{
					id: WORKFLOW_ID,
					name: 'E2E on MariaDB',
					webhookId: WEBHOOK_ID,
					secret: SECRET,
					header: HEADER,
				},
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
				240000,
			));
			for (let i = 1; i <= EVENTS; i++) events.push(await newPayeeEvent(stack!.sandbox, i));
		});

		afterAll(async () => {
			if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
			await stopStack(stack);
			await mariadb?.stop();
		});

		test(`${EVENTS} events × ${COPIES} copies at once: one run per event; each run's payout refused before it is sent`, async () => {
			const { n8n } = stack!;
			const statuses = await deliverCopies(url, events, COPIES, SECRET, HEADER);
			const runs = await settledExecutions(n8n, WORKFLOW_ID, EVENTS, 90000);
			const passed = runs.flatMap(eventsPastTrigger);
			// The run's error, or the Pay node's (either holds n8n's message).
			const errors = runs.map((run) => JSON.stringify(run.data?.resultData ?? {}));
			lines.push(
				`mariadb[n8n ${n8n.n8nVersion}, ${EVENTS} events × ${COPIES} at once]: ${runs.length} runs, ${passed.length} past the trigger, ` +
					`${errors.filter((text) => text.includes('cannot keep')).length} refused at Pay, ${payouts()} payouts`,
			);
			expect(statuses.every((status) => status === 200)).toBe(true);
			expect(runs).toHaveLength(EVENTS);
			expect([...passed].sort()).toEqual(events.map((event) => event.eventId).sort());
			expect(
				errors.every((text) =>
					text.includes('n8n’s database cannot keep this node’s duplicate records'),
				),
			).toBe(true);
			expect(payouts()).toBe(0);
			// The trigger's records are in n8n's table, under 64 KB.
			const sizes = mariadbQuery(mariadb!.port, 'SELECT LENGTH(value) FROM processed_data', 'n8n')
				.split('\n')
				.map(Number);
			expect(Math.max(...sizes)).toBeLessThan(65535);
		});

		test('after n8n restarts, the same copies again: nothing goes past the trigger', async () => {
			const { n8n } = stack!;
			await n8n.stop();
			await n8n.start({ timeoutMs: 240000 });
			await webhookServed(n8n, url, 30000);
			const before = (await executionsOf(n8n, WORKFLOW_ID)).length;
			const statuses = await deliverCopies(url, events, COPIES, SECRET, HEADER);
			const fresh = (await settledExecutions(n8n, WORKFLOW_ID, before + EVENTS, 90000)).slice(
				before,
			);
			const passed = fresh.flatMap(eventsPastTrigger);
			lines.push(
				`mariadb[n8n ${n8n.n8nVersion}, the same after a restart]: ${fresh.length} runs, ${passed.length} past the trigger, ${payouts()} payouts`,
			);
			expect(statuses.every((status) => status === 200)).toBe(true);
			expect(fresh).toHaveLength(EVENTS);
			expect(passed).toEqual([]);
			expect(payouts()).toBe(0);
		});
	},
);
