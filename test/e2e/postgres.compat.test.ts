/**
 * n8n on PostgreSQL (Debian's package, a private server), one n8n process, issue #32: a
 * money-moving node's records hold there on every n8n line (n8n 1.x keeps them in a TEXT column,
 * without PostgreSQL's limit; the node's capacity probe passes: nodes/shared/ledger/capacity.ts).
 * The trigger's de-duplication is off, so every copy of an event starts a run and the Pay node's
 * records alone keep each payee paid once, at once and after a restart. n8n's own defaults (its
 * pool of 2 connections); the credential as a user creates it, and as the README recommends for
 * one n8n process (One Process Only).
 *
 *   postgres[n8n <version>, <credential>, <case>]: ...
 */
import { randomUUID } from 'crypto';

import { ensureServices, psql, startPostgres, type Service } from '../queue/support/services';
import {
	describeE2E,
	deliverCopies,
	executionsOf,
	n8nOnPostgres,
	newPayeeEvent,
	settledExecutions,
	startPayPerEvent,
	stopStack,
	webhookServed,
	type PayeeEvent,
	type Stack,
} from './support/e2e';
import type { WalletCredentialData } from '../../tooling/n8n/n8n';

const SECRET = 'whsec_postgres';
const HEADER = 'x-wallet-signature';
const EVENTS = 3;
const COPIES = 3;

const CREDENTIALS: Array<[string, Partial<WalletCredentialData>]> = [
	['as created', {}],
	['One Process Only', { processes: 'one' }],
];

describeE2E.each(CREDENTIALS)(
	'n8n on PostgreSQL, credential %s: the Pay node’s records keep each payee paid once',
	(label, credential) => {
		const workflowId = label === 'as created' ? 'WalletE2ePgMade1' : 'WalletE2ePgOne01';
		const webhookId = randomUUID();
		let postgres: Service | undefined;
		let stack: Stack | undefined;
		let url = '';
		const lines: string[] = [];
		const events: PayeeEvent[] = [];

		const deliverAll = async () => await deliverCopies(url, events, COPIES, SECRET, HEADER);
		const paidTo = (beneficiaryId: string) =>
			stack!.sandbox.state.transactions.filter(
				(tx) => tx.kind === 'payout' && tx.beneficiaryId === beneficiaryId,
			).length;
		const payouts = () =>
			stack!.sandbox.state.transactions.filter((tx) => tx.kind === 'payout').length;
		const failed = (runs: Array<{ status?: string }>) =>
			runs.filter((run) => run.status !== 'success').length;

		beforeAll(async () => {
			const { postgresBin } = ensureServices((line) => process.stderr.write(`${line}\n`));
			postgres = await startPostgres(postgresBin, { parentDir: process.env.WALLET_E2E_RUN_DIR });
			psql(postgres.port, 'postgres', 'CREATE DATABASE n8n');
			({ stack, url } = await startPayPerEvent(
				{
					id: workflowId,
					name: `E2E on PostgreSQL (${label})`,
					webhookId,
					secret: SECRET,
					header: HEADER,
					dedupeWindow: 0,
				},
				n8nOnPostgres(postgres.port),
				240000,
				credential,
			));
			for (let i = 1; i <= EVENTS; i++) events.push(await newPayeeEvent(stack!.sandbox, i));
		});

		afterAll(async () => {
			if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
			await stopStack(stack);
			await postgres?.stop();
		});

		test(`${EVENTS} events × ${COPIES} copies at once, every copy a run: each payee paid once`, async () => {
			const { n8n } = stack!;
			const statuses = await deliverAll();
			const runs = await settledExecutions(n8n, workflowId, EVENTS * COPIES, 120000);
			const perPayee = events.map((event) => paidTo(event.beneficiaryId));
			lines.push(
				`postgres[n8n ${n8n.n8nVersion}, ${label}, ${EVENTS} events × ${COPIES} at once]: ${runs.length} runs, ` +
					`${failed(runs)} failed, ${payouts()} payouts, per payee ${JSON.stringify(perPayee)}`,
			);
			expect(statuses.every((status) => status === 200)).toBe(true);
			expect(runs).toHaveLength(EVENTS * COPIES);
			expect(failed(runs)).toBe(0);
			expect(perPayee).toEqual(events.map(() => 1));
			// The Pay node's records are in PostgreSQL (the probe's 2,500 values were removed).
			const rows = psql(postgres!.port, 'n8n', 'SELECT COUNT(*) FROM processed_data');
			expect(Number(rows)).toBeGreaterThanOrEqual(1);
		});

		test('after n8n restarts, the same copies again: runs, and nobody paid again', async () => {
			const { n8n } = stack!;
			await n8n.stop();
			await n8n.start({ timeoutMs: 240000 });
			await webhookServed(n8n, url, 30000);
			const before = (await executionsOf(n8n, workflowId)).length;
			const statuses = await deliverAll();
			const fresh = (
				await settledExecutions(n8n, workflowId, before + EVENTS * COPIES, 120000)
			).slice(before);
			const perPayee = events.map((event) => paidTo(event.beneficiaryId));
			lines.push(
				`postgres[n8n ${n8n.n8nVersion}, ${label}, the same after a restart]: ${fresh.length} runs, ` +
					`${failed(fresh)} failed, ${payouts()} payouts, per payee ${JSON.stringify(perPayee)}`,
			);
			expect(statuses.every((status) => status === 200)).toBe(true);
			expect(fresh).toHaveLength(EVENTS * COPIES);
			expect(failed(fresh)).toBe(0);
			expect(perPayee).toEqual(events.map(() => 1));
		});
	},
);
