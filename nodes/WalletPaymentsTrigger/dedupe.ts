/**
 * One run per event, in two layers: an in-process admission table when the request arrives
 * (`webhook()`: copies arriving at this process meanwhile are answered and start nothing), and
 * n8n's store when the run starts (`execute()`: copies after a restart or at another process stop
 * at the trigger). Why two, and why not workflow static data: docs/trigger.md.
 */
import type { IExecuteFunctions, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import { recordEvents } from '../shared/ledger';

export const DEFAULT_DEDUPE_WINDOW = 1000;

export function dedupeWindow(value: unknown): number {
	if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
		return DEFAULT_DEDUPE_WINDOW;
	return Math.floor(value);
}

/**
 * Copies within this long of an answered delivery are one burst: answered as duplicates while its
 * run settles. Later copies start a run unless a step in this process passed the event: a 2xx comes
 * right after the event's first record, and a run on another process (a queue-mode worker) may
 * still fail or die before it passes the event on (layer 2 then decides).
 */
export const BURST_MS = 5000;

/**
 * An admission's state: waiting for n8n's answer to its delivery (resolves true for 2xx, false
 * otherwise); answered 2xx at `answeredAt`; or passed on (a step in this process said so).
 */
type AdmissionState = Promise<boolean> | { answeredAt: number } | 'passed';

/** The admissions' table of a trigger: per workflow, node and mode (the Test URL apart). */
export function admissionScope(context: IWebhookFunctions | IExecuteFunctions): string {
	return `${context.getWorkflow().id ?? ''}:${context.getNode().id}:${context.getMode()}`;
}

/** Per trigger (workflow, node and mode): the keys admitted, oldest first, and their states. */
const admissions = new Map<string, { order: string[]; state: Map<string, AdmissionState> }>();

/** What the caller of admitEvent reports once n8n answered the delivery. */
export type AnswerReport = (startedRun: boolean) => void;

/**
 * Layer 1. For a key new to this trigger: records it (dropping the oldest keys beyond the window)
 * and returns how to report n8n's answer to this delivery. A 2xx answer means n8n started the
 * run, and the key then stops copies of the same burst (BURST_MS), and any later copy once a step
 * in this process passed the event (eventsSettled); any other answer (n8n could not start the
 * run, or the connection closed first) frees the key, so the provider's next delivery is
 * processed. For a key whose delivery is still waiting for its answer: waits for it, then admits
 * it if that delivery was not answered 2xx. A window of 0 admits everything (de-duplication off).
 * Look-up and record are one synchronous step: nothing can run in between.
 */
export async function admitEvent(
	scope: string,
	key: string,
	windowSize: number,
): Promise<AnswerReport | false> {
	if (windowSize <= 0) return () => undefined;
	let table = admissions.get(scope);
	if (!table) {
		table = { order: [], state: new Map() };
		admissions.set(scope, table);
	}
	for (;;) {
		const state = table.state.get(key);
		if (state === 'passed') return false;
		if (state === undefined) break;
		if (state instanceof Promise) {
			if (await state) return false;
			continue;
		}
		if (Date.now() - state.answeredAt < BURST_MS) return false;
		break;
	}
	let report!: AnswerReport;
	const answered = new Promise<boolean>((resolve) => {
		let reported = false;
		report = (startedRun) => {
			if (reported) return;
			reported = true;
			if (startedRun && table.state.get(key) === answered)
				table.state.set(key, { answeredAt: Date.now() });
			else if (!startedRun) release(table, key, answered);
			resolve(startedRun);
		};
	});
	if (table.state.has(key)) table.order.splice(table.order.lastIndexOf(key), 1);
	table.state.set(key, answered);
	table.order.push(key);
	while (table.order.length > windowSize) table.state.delete(table.order.shift()!);
	return report;
}

/**
 * From the trigger's step, in the process that answered the deliveries (one n8n process): the
 * events passed on (by this run or another) stop every later copy; the events of a run that failed
 * are freed, so the next delivery starts a run. Keys this process did not admit are left alone.
 */
export function eventsSettled(scope: string, keys: string[], passed: boolean): void {
	const table = admissions.get(scope);
	if (!table) return;
	for (const key of keys) {
		const state = table.state.get(key);
		if (state === undefined || state instanceof Promise) continue;
		if (passed) table.state.set(key, 'passed');
		else release(table, key, state);
	}
}

function release(
	table: { order: string[]; state: Map<string, AdmissionState> },
	key: string,
	admission: AdmissionState,
): void {
	if (table.state.get(key) !== admission) return;
	table.state.delete(key);
	const at = table.order.lastIndexOf(key);
	if (at !== -1) table.order.splice(at, 1);
}

/**
 * Layer 2, in the execution: the items whose event no run of this workflow's trigger passed on
 * (per n8n's database). `answer` is called once their first record is written (or at once when
 * nothing is recorded); the rest is settled after it (the ledger's eventClaims.ts), and this
 * process's admissions of those events learn the outcome. Items without a key always pass. A first
 * record that fails fails the run before `answer`.
 */
export async function unhandledEvents(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	windowSize: number,
	answer: () => void,
): Promise<INodeExecutionData[]> {
	const keyed =
		windowSize <= 0 ? [] : items.filter((item) => typeof item.json.eventKey === 'string');
	if (keyed.length === 0) {
		answer();
		return items;
	}
	const keys = keyed.map((item) => item.json.eventKey as string);
	// In one n8n process the deliveries were answered here too: their admissions learn the outcome.
	const scope = admissionScope(context);
	const handled = await recordEvents(context, keys, windowSize, answer).catch(
		async (error: unknown) => {
			eventsSettled(scope, keys, false);
			return await Promise.reject(error);
		},
	);
	eventsSettled(scope, keys, true);
	return items.filter(
		(item) => typeof item.json.eventKey !== 'string' || !handled.has(item.json.eventKey),
	);
}
