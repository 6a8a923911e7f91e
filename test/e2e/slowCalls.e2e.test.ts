/**
 * The claim's timing bound, watched in production (issue #47, point 3), in a real n8n 2.x on
 * PostgreSQL, one process, the credential as created (Claim Wait 4,000 ms). A normal run says
 * nothing. Then every write of n8n's store is made slow on purpose (a PostgreSQL trigger that
 * sleeps 2.5 s, more than half the claim wait and less than all of it): the run still pays once,
 * and the trigger's step and the Pay node each warn above their output and in n8n's log, naming
 * the call's time and the claim wait.
 *
 *   slowCalls[<case>]: <payouts> payouts, hints <nodes>, log warnings <n>
 */
import { randomUUID } from 'crypto';

import { ensureServices, psql, startPostgres, type Service } from '../queue/support/services';
import { describeE2E, deliverCopies, executionsOf, n8nOnPostgres, newPayeeEvent, settledExecutions, startPayPerEvent, stopStack, type ApiExecution, type Stack } from './support/e2e';

const SECRET = 'whsec_slow_calls';
const HEADER = 'x-wallet-signature';
const WORKFLOW_ID = 'WalletE2eSlowCal';
const SLOW = /One of n8n's store calls took (\d+) ms, more than half the claim wait \(4000 ms\)/;

/** The nodes of an execution whose output carries the slow-call warning, with the time it names. */
function slowHints(execution: ApiExecution): Array<[string, number]> {
	const runData = execution.data?.resultData.runData ?? {};
	return Object.entries(runData).flatMap(([node, runs]) =>
		runs.flatMap((run) => ((run as { hints?: Array<{ message: string }> }).hints ?? []).flatMap((hint) => {
			const found = SLOW.exec(hint.message);
			return found ? [[node, Number(found[1])] as [string, number]] : [];
		})),
	);
}

describeE2E('a slow store call warns, in the run and in n8n\'s log (PostgreSQL, the credential as created)', () => {
	let postgres: Service | undefined;
	let stack: Stack | undefined;
	let url = '';
	const lines: string[] = [];
	const warnings = () => (stack!.n8n.log.match(/wallet-payments: One of n8n's store calls took/g) ?? []).length;
	const payouts = () => stack!.sandbox.state.transactions.filter((tx) => tx.kind === 'payout').length;

	/** Delivers one new event and returns its execution once it ended. */
	async function oneEvent(n: number): Promise<ApiExecution> {
		const before = (await executionsOf(stack!.n8n, WORKFLOW_ID)).length;
		const event = await newPayeeEvent(stack!.sandbox, n);
		expect(await deliverCopies(url, [event], 1, SECRET, HEADER)).toEqual([200]);
		const runs = await settledExecutions(stack!.n8n, WORKFLOW_ID, before + 1, 120000);
		return runs[runs.length - 1];
	}

	beforeAll(async () => {
		const { postgresBin } = ensureServices((line) => process.stderr.write(`${line}\n`));
		postgres = await startPostgres(postgresBin, { parentDir: process.env.WALLET_E2E_RUN_DIR });
		psql(postgres.port, 'postgres', 'CREATE DATABASE n8n');
		({ stack, url } = await startPayPerEvent(
			{ id: WORKFLOW_ID, name: 'E2E slow store calls', webhookId: randomUUID(), secret: SECRET, header: HEADER },
			n8nOnPostgres(postgres.port),
			240000,
			// The credential as a user creates it (the e2e default is One Process Only).
			{ processes: undefined },
		));
	});

	afterAll(async () => {
		if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
		await stopStack(stack);
		await postgres?.stop();
	});

	test('a normal run: no warning', async () => {
		const run = await oneEvent(1);
		lines.push(`slowCalls[normal]: ${payouts()} payouts, hints ${JSON.stringify(slowHints(run))}, log warnings ${warnings()}`);
		expect(run.status).toBe('success');
		expect(payouts()).toBe(1);
		expect(slowHints(run)).toEqual([]);
		expect(warnings()).toBe(0);
	});

	test('every store write 2.5 s slower: paid once, and the trigger and Pay warn with the call\'s time', async () => {
		psql(
			postgres!.port,
			'n8n',
			"CREATE FUNCTION wallet_slow_store() RETURNS trigger AS $$ BEGIN PERFORM pg_sleep(2.5); RETURN NEW; END $$ LANGUAGE plpgsql; " +
				'CREATE TRIGGER wallet_slow_store BEFORE INSERT OR UPDATE ON processed_data FOR EACH ROW EXECUTE FUNCTION wallet_slow_store();',
		);
		const run = await oneEvent(2);
		const hints = slowHints(run);
		lines.push(`slowCalls[slow writes]: ${payouts()} payouts, hints ${JSON.stringify(hints)}, log warnings ${warnings()}`);
		expect(run.status).toBe('success');
		expect(payouts()).toBe(2);
		expect(hints.map(([node]) => node).sort()).toEqual(['Pay', 'Wallet Payments Trigger']);
		for (const [, ms] of hints) expect(ms).toBeGreaterThanOrEqual(2500);
		expect(warnings()).toBe(2);
	});
});
