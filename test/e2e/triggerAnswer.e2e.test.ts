/**
 * A run n8n fails before it starts, after the trigger's webhook() accepted the delivery (issue
 * #29, point 2). n8n 2.41.1's `WorkflowRunner.run` checks the workflow's credentials first; when
 * that check throws (a credential the workflow may not use, or a pool timeout in its queries at
 * n8n's default pool of 2), it fails the execution and returns normally. A webhook answered
 * `onReceived` is then answered 200 and the event is lost; the trigger's webhook is `responseNode`
 * and its step answers, so n8n answers such a delivery with an error and the provider delivers it
 * again (nodes/WalletPaymentsTrigger/startedAnswer.ts). The fault here: the credential made
 * unusable in workflows (n8n's `usageScope`), with Verify Signature off so that webhook() itself
 * does not read it. Second case (issue #44, point 2): a run that fails at the trigger's own step,
 * its event's record refused by n8n's store, is not answered 2xx either: the step answers only once
 * the record held.
 *
 *   trigger-answer[<case>]: ...
 */
import { randomUUID } from 'crypto';

import {
	describeE2E,
	eventsPastTrigger,
	executionsOf,
	newPayeeEvent,
	settledExecutions,
	startPayPerEvent,
	stopStack,
	tally,
	type PayeeEvent,
	type Stack,
} from './support/e2e';
import { CREDENTIAL_ID } from '../../tooling/n8n/n8n';
import { paidTimes } from '../queue/support/queue';
import { postJson } from '../../tooling/n8n/http';

const WORKFLOW_ID = 'WalletE2eAnswer1';
const WEBHOOK_ID = randomUUID();
const HEADER = 'x-wallet-signature';
const EVENTS = 5;

describeE2E('Wallet Payments Trigger: a run n8n fails in its own checks is never answered 2xx', () => {
	let stack: Stack | undefined;
	let url = '';
	const lines: string[] = [];

	const deliver = async (sent: PayeeEvent) => await postJson(url, sent.body);
	const setUsageScope = (scope: string) => {
		if (!/^\w+$/.test(scope)) throw new Error(`Bad scope ${scope}`);
		stack!.n8n.sqlite(`UPDATE credentials_entity SET "usageScope" = '${scope}' WHERE id = '${CREDENTIAL_ID}';`);
	};

	/** The same events delivered again: each answered 200, past the trigger once, paid once. */
	const deliveredAgainOnce = async (events: PayeeEvent[], executionsBefore: number) => {
		const second = await Promise.all(events.map(deliver));
		const runs = (await settledExecutions(stack!.n8n, WORKFLOW_ID, executionsBefore + EVENTS)).slice(executionsBefore);
		const passed = runs.flatMap(eventsPastTrigger);
		const perEvent = events.map((event) => passed.filter((id) => id === event.eventId).length);
		const payouts = paidTimes(stack!.sandbox, events.map((event) => event.beneficiaryId));
		lines.push(
			`trigger-answer[the same ${EVENTS} delivered again]: answers ${JSON.stringify(tally(second))}, ${runs.length} runs, ` +
				`past the trigger per event ${JSON.stringify(tally(perEvent))}, payouts per event ${JSON.stringify(payouts)}`,
		);
		expect(second).toEqual(events.map(() => 200));
		expect(perEvent).toEqual(events.map(() => 1));
		expect(payouts).toEqual({ 1: EVENTS });
	};

	/** Sets the value of the trigger node's row in n8n's store (found by its type in the workflow). */
	const setTriggerRow = (value: string) =>
		stack!.n8n.sqlite(
			`DELETE FROM processed_data WHERE "workflowId" = '${WORKFLOW_ID}'; ` +
				`INSERT INTO processed_data ("workflowId", "context", "value", "createdAt", "updatedAt") ` +
				`SELECT '${WORKFLOW_ID}', 'n:' || json_extract(n.value, '$.id'), ${value}, datetime('now'), datetime('now') ` +
				`FROM workflow_entity w, json_each(w.nodes) n WHERE w.id = '${WORKFLOW_ID}' AND json_extract(n.value, '$.type') LIKE '%walletPaymentsTrigger';`,
		);

	beforeAll(async () => {
		({ stack, url } = await startPayPerEvent({
			id: WORKFLOW_ID,
			name: 'E2E trigger: n8n fails the run in its checks',
			webhookId: WEBHOOK_ID,
			secret: 'unused',
			header: HEADER,
			verifySignature: false,
			// The credential as a user creates it: the event's record is a claim.
		}, {}, undefined, { processes: undefined }));
	});

	afterAll(async () => {
		if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
		await stopStack(stack);
	});

	test(`${EVENTS} events whose runs n8n fails before any node: not answered 2xx; delivered again, each runs once and is paid once`, async () => {
		const events: PayeeEvent[] = [];
		for (let i = 1; i <= EVENTS; i++) events.push(await newPayeeEvent(stack!.sandbox, i));

		setUsageScope('instance');
		const first = await Promise.all(events.map(deliver));
		setUsageScope('project');
		const failed = await settledExecutions(stack!.n8n, WORKFLOW_ID, 0, 10000);
		lines.push(
			`trigger-answer[${EVENTS} events, n8n fails each run in its credential check]: answers ${JSON.stringify(tally(first))}, ` +
				`${failed.length} executions (${failed.filter((e) => e.status === 'error').length} failed), ${failed.flatMap(eventsPastTrigger).length} past the trigger`,
		);
		expect(failed.flatMap(eventsPastTrigger)).toEqual([]);
		// Anything but 2xx makes the provider deliver again; a 2xx here would lose the event.
		expect(first.filter((status) => status >= 200 && status < 300)).toEqual([]);

		await deliveredAgainOnce(events, failed.length);
		expect((await executionsOf(stack!.n8n, WORKFLOW_ID)).length).toBe(failed.length + EVENTS);
	});

	test(`${EVENTS} events whose record fails at the trigger's step: not answered 2xx; delivered again, each runs once and is paid once`, async () => {
		const events: PayeeEvent[] = [];
		for (let i = 1; i <= EVENTS; i++) events.push(await newPayeeEvent(stack!.sandbox, 100 + i));
		const before = (await executionsOf(stack!.n8n, WORKFLOW_ID)).length;

		// The trigger's row in n8n's store made unusable for it (another mode, as n8n's Remove
		// Duplicates node can leave one): every record at the step throws.
		setTriggerRow(`'{"mode":"latestIncrementalKey","data":"1"}'`);
		const first = await Promise.all(events.map(deliver));
		const failed = await settledExecutions(stack!.n8n, WORKFLOW_ID, before + EVENTS);
		stack!.n8n.sqlite(`DELETE FROM processed_data WHERE "workflowId" = '${WORKFLOW_ID}';`);
		const failedHere = failed.slice(before);
		lines.push(
			`trigger-answer[${EVENTS} events, the record fails at the trigger's step]: answers ${JSON.stringify(tally(first))}, ` +
				`${failedHere.length} executions (${failedHere.filter((e) => e.status === 'error').length} failed), ${failedHere.flatMap(eventsPastTrigger).length} past the trigger`,
		);
		expect(failedHere.flatMap(eventsPastTrigger)).toEqual([]);
		expect(failedHere.filter((e) => e.status === 'error')).toHaveLength(EVENTS);
		// Answered 200 before the record, these events would be lost (no provider delivers again).
		expect(first.filter((status) => status >= 200 && status < 300)).toEqual([]);

		await deliveredAgainOnce(events, failed.length);
	});
});
