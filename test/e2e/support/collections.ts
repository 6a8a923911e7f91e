/**
 * The collections examples as collections.e2e.test.ts runs them: published (each schedule and Run
 * Now a production webhook, e-mail on, pointed at the test's mail server), or as imported for the
 * editor (e-mail on, triggers kept), and one "round" per case: start a run, wait for it, count
 * what it did and print `collections[<case>]: ...`.
 */
import { randomUUID } from 'crypto';

import { executionsOf, executionWhen, waitForExecutions, type ApiExecution, type Stack } from './e2e';
import { readMail, SEND_EMAIL_TYPE, withMail, type SmtpSink } from '../../../tooling/demo/smtpSink';
import { outputOf } from '../../../tooling/demo/payrollExample';
import type { WorkflowJson } from '../../../tooling/n8n/n8n';
import type { CollectionRecord } from '../../../tooling/sandbox/state';

export const MAIL = { id: 'WalletMailSink02', name: 'Billing mail (test)' };

type Node = WorkflowJson['nodes'][number];
type Row = Record<string, unknown>;

/** The user's reminder settings: `reminders` and `daysBetween` (0 here: due at once). */
export const reminderSettings = (settings: { reminders?: number; daysBetween?: number }) => (n: Node): Node => {
	if (n.name !== 'Reminder Settings') return n;
	const parameters = structuredClone(n.parameters) as { assignments: { assignments: Array<{ name: string; value: unknown }> } };
	for (const field of parameters.assignments.assignments) {
		const value = settings[field.name as keyof typeof settings];
		if (value !== undefined) field.value = value;
	}
	return { ...n, parameters };
};

/** The example with e-mail on; each node named in `webhooks` a production webhook at that path. */
export function asRun(workflow: WorkflowJson, webhooks: Record<string, string>, change: (node: Node) => Node = (n) => n): WorkflowJson {
	const nodes = workflow.nodes.map((n) => {
		const path = webhooks[String(n.name)];
		if (path) return { ...n, type: 'n8n-nodes-base.webhook', typeVersion: 2, webhookId: randomUUID(), parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} } };
		if (n.type === SEND_EMAIL_TYPE) return withMail(n, MAIL);
		return change(n);
	});
	return { ...workflow, nodes };
}

/** The billing example billing another period (its Customers node's `period`), as another workflow. */
export function forPeriod(workflow: WorkflowJson, id: string, period: string): WorkflowJson {
	const nodes = workflow.nodes.map((n) => {
		if (n.name !== 'Customers') return n;
		const parameters = n.parameters as { jsonOutput: string };
		return { ...n, parameters: { ...parameters, jsonOutput: parameters.jsonOutput.replace(/"period": "\d{4}-\d{2}"/g, `"period": "${period}"`) } };
	});
	return { ...workflow, id, name: `${workflow.name} (${period})`, nodes };
}

export interface Round {
	run: ApiExecution;
	recorded: Row[];
	created: number;
	details: number;
	emails: Array<{ to: string; subject: string; body: string }>;
	paid: number;
	partial: number;
	reminded: Row[];
	renewed: Row[];
}

/** Runs one case and keeps its printed line. */
export function rounds(stack: () => Stack, mail: SmtpSink, lines: string[]) {
	const collections = () => stack().sandbox.state.transactions.filter((t): t is CollectionRecord => t.kind === 'collection');
	const newest = (runs: ApiExecution[]) => runs.reduce((a, b) => (Number(a.id) > Number(b.id) ? a : b));

	async function measure(label: string, start: () => Promise<ApiExecution>): Promise<Round> {
		const before = { made: collections().length, mails: mail.messages.length };
		const run = await start();
		expect(run.status).toBe('success');
		const recorded = outputOf(run, 'Record Collection');
		const paid = outputOf(run, 'Mark Paid').filter((row) => row.paidAt);
		const partial = outputOf(run, 'Mark Partial').filter((row) => row.paidAt);
		const emails = mail.messages.slice(before.mails).map(readMail);
		const result = {
			run,
			recorded,
			created: collections().length - before.made,
			details: recorded.filter((row) => /^\d{10}$/.test(String(row.accountNumber))).length,
			emails,
			paid: paid.length,
			partial: partial.length,
			reminded: outputOf(run, 'Record Reminder'),
			renewed: outputOf(run, 'Record Renewal'),
		};
		lines.push(
			`collections[${label}]: ${result.created} created, ${result.details} recorded, ${result.renewed.length} renewed, ${result.paid} marked paid, ${result.partial} partial, ${result.reminded.length} reminders counted; ${emails.length} emails${emails.length ? ` (${emails.map((e) => `${e.to.split('@')[0]}: ${e.subject}`).join('; ')})` : ''}`,
		);
		return result;
	}

	/** A published workflow started by its production webhook (as its schedule starts it). */
	const published = async (label: string, workflowId: string, start: () => Promise<unknown>) =>
		await measure(label, async () => {
			const runs = (await executionsOf(stack().n8n, workflowId)).length;
			await start();
			return newest(await waitForExecutions(stack().n8n, workflowId, runs + 1, 60000));
		});

	/** The editor's Execute workflow from one trigger. */
	const fromEditor = async (label: string, workflowId: string, trigger: string) =>
		await measure(label, async () => {
			const started = await stack().n8n.runManually(workflowId, { triggerToStartFrom: { name: trigger } });
			const id = started.body.data?.executionId;
			if (started.status !== 200 || !id) throw new Error(`POST /rest/workflows/${workflowId}/run → ${started.status}: ${JSON.stringify(started.body)}`);
			return await executionWhen(stack().n8n, String(id), { timeoutMs: 60000 });
		});

	return { collections, published, fromEditor };
}

/** What a customer was given to pay into: [customerNo, accountNumber, bankName, amount, currency, expiryDate]. */
export const accounts = (rows: Row[]) => rows.map((row) => [row.customerNo, row.accountNumber, row.bankName, row.amount, row.currency, row.expiryDate]);
