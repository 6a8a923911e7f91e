import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { Batching } from '../input/batching';
import { inFlight, type InFlight } from './inFlight';
import type { ItemResult } from './itemLoop';
import { getTransaction } from '../transport/request';
import { InvalidInput, numberInRange, optionalText } from '../input/validation';

/**
 * Final statuses when the user sets none: the provider's statuses (INITIATED, PENDING,
 * PROCESSING, SUCCESS, FAILED, EXPIRED; provider notes) that do not change any more, plus
 * REVERSED (a settled payout sent back). Compared case-insensitively.
 */
export const DEFAULT_FINAL_STATUSES = ['success', 'failed', 'reversed', 'expired'];

export interface WaitSettings {
	maxWaitSeconds: number;
	firstCheckSeconds: number;
	longestIntervalSeconds: number;
	finalStatuses: string[];
}

export interface Settlement {
	/** The transaction as last read (Transaction → Get). */
	transaction: IDataObject;
	settled: boolean;
	/** The final status reached, lower case; null when the wait ran out first. */
	finalStatus: string | null;
	waitedSeconds: number;
	checks: number;
}

/** The fields that set how long and how often to check, for both places that wait. */
export function waitProperties(show?: IDataObject): INodeProperties[] {
	const displayOptions = show ? { show: show as never } : undefined;
	return [
		{
			displayName: 'Max Wait (Seconds)',
			name: 'maxWaitSeconds',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 300,
			description:
				'How long to wait for a final status; an item still not final then is output with settled false',
			displayOptions,
		},
		{
			displayName: 'Wait Options',
			name: 'waitOptions',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			displayOptions,
			options: [
				{
					displayName: 'Final Statuses',
					name: 'finalStatuses',
					type: 'string',
					default: DEFAULT_FINAL_STATUSES.join(', '),
					description:
						'Statuses that end the wait (comma-separated, any case). The contract does not list them; these are the provider’s final ones plus reversed.',
				},
				{
					displayName: 'First Check After (Seconds)',
					name: 'firstCheckSeconds',
					type: 'number',
					typeOptions: { minValue: 0.1, numberPrecision: 1 },
					default: 5,
					description:
						'When to look the first time; each later wait is twice the one before, up to Longest Interval',
				},
				{
					displayName: 'Longest Interval (Seconds)',
					name: 'longestIntervalSeconds',
					type: 'number',
					typeOptions: { minValue: 0.1, numberPrecision: 1 },
					default: 60,
					description: 'The longest wait between two checks',
				},
			],
		},
	];
}

/** The wait settings of an item, checked. */
export function readWaitSettings(context: IExecuteFunctions, itemIndex: number): WaitSettings {
	const options = context.getNodeParameter('waitOptions', itemIndex, {}) as IDataObject;
	const maxWaitSeconds = numberInRange(
		context.getNodeParameter('maxWaitSeconds', itemIndex, 300),
		'Max Wait (Seconds)',
		1,
		86400,
		'seconds',
	);
	const firstCheckSeconds = numberInRange(
		options.firstCheckSeconds ?? 5,
		'First Check After (Seconds)',
		0.1,
		3600,
		'seconds',
	);
	const longestIntervalSeconds = numberInRange(
		options.longestIntervalSeconds ?? 60,
		'Longest Interval (Seconds)',
		0.1,
		3600,
		'seconds',
	);
	const statusText = optionalText(options.finalStatuses, 'Final Statuses', 500);
	const finalStatuses = (statusText ?? DEFAULT_FINAL_STATUSES.join(','))
		.split(',')
		.map((status) => status.trim().toLowerCase())
		.filter((status) => status !== '');
	if (finalStatuses.length === 0)
		throw new InvalidInput(
			'Final Statuses',
			'names no status; give at least one, e.g. success, failed',
		);
	return { maxWaitSeconds, firstCheckSeconds, longestIntervalSeconds, finalStatuses };
}

/** The wait settings when the item's "Wait for Final Status" is on; undefined otherwise. */
export function waitSettingsIfAsked(
	context: IExecuteFunctions,
	itemIndex: number,
): WaitSettings | undefined {
	return context.getNodeParameter('waitForFinalStatus', itemIndex, false) === true
		? readWaitSettings(context, itemIndex)
		: undefined;
}

/**
 * Reads the transaction until its status is final or the wait runs out: the first check after
 * `firstCheckSeconds`, each later wait twice the one before up to `longestIntervalSeconds`, and
 * a last check when the wait runs out. Waits with n8n-workflow's own sleep; each check goes
 * through `inFlight` (the run's bound on requests in flight).
 */
export async function waitForFinalStatus(
	context: IExecuteFunctions,
	transactionId: string,
	settings: WaitSettings,
	inFlight: InFlight = async (task) => await task(),
): Promise<Settlement> {
	const started = Date.now();
	const elapsed = () => (Date.now() - started) / 1000;
	let interval = settings.firstCheckSeconds;
	let checks = 0;
	for (;;) {
		const remaining = settings.maxWaitSeconds - elapsed();
		await sleep(Math.max(0, Math.min(interval, remaining)) * 1000);
		const transaction = await inFlight(
			async () => await getTransaction.call(context, transactionId),
		);
		checks++;
		const status = String(transaction.status ?? '').toLowerCase();
		const settled = settings.finalStatuses.includes(status);
		if (settled || elapsed() >= settings.maxWaitSeconds) {
			return {
				transaction,
				settled,
				finalStatus: settled ? status : null,
				waitedSeconds: Math.round(elapsed() * 10) / 10,
				checks,
			};
		}
		interval = Math.min(interval * 2, settings.longestIntervalSeconds);
	}
}

/** The settlement fields added to an item's output. */
export function settlementFields({
	transaction,
	settled,
	finalStatus,
	waitedSeconds,
	checks,
}: Settlement): IDataObject {
	const fields: IDataObject = {
		settled,
		finalStatus,
		status: transaction.status,
		waitedSeconds,
		checks,
	};
	if (typeof transaction.failedReason === 'string' && transaction.failedReason !== '')
		fields.failedReason = transaction.failedReason;
	return fields;
}

/**
 * "Wait for Final Status" on an operation that sends a payout: after sending, the router checks
 * the new transaction until it settles (engine/settlement.ts).
 */
export function waitForFinalStatusProperties(): INodeProperties[] {
	return [
		{
			displayName: 'Wait for Final Status',
			name: 'waitForFinalStatus',
			type: 'boolean',
			default: false,
			description:
				'Whether to check each payout after sending it until it settles, fails or is reversed, and output settled, finalStatus, waitedSeconds and checks with it. The payouts are sent first (see Batching); then they wait together.',
		},
		...waitProperties({ waitForFinalStatus: [true] }),
	];
}

/**
 * The guarded pipeline's settle step: every sent item that asked to wait (`waitOf`) waits at once,
 * their status checks within the Batching bound on requests in flight. Gives the sent items'
 * outputs with their final status, by item index (only those that waited).
 */
export async function settleSent(
	context: IExecuteFunctions,
	sent: Map<number, ItemResult<IDataObject>>,
	waitOf: (itemIndex: number) => WaitSettings | undefined,
	batching: Batching | undefined,
): Promise<Map<number, IDataObject>> {
	const toWait = [...sent.entries()]
		.filter(
			([itemIndex, result]) =>
				result.ok &&
				!!waitOf(itemIndex) &&
				typeof result.value.id === 'string' &&
				// Sent now, or sent before with the ID this node kept (keptRecords.ts).
				(!result.value.alreadySubmitted || result.value.detailsKept === true),
		)
		.map(([itemIndex]) => itemIndex);
	const checks = inFlight(batching && toWait.length > 0 ? batching.itemsPerBatch : 1);
	const waited = new Map<number, IDataObject>();
	await Promise.all(
		toWait.map(async (itemIndex) => {
			const json = (sent.get(itemIndex) as { ok: true; value: IDataObject }).value;
			try {
				const settlement = await waitForFinalStatus(
					context,
					json.id as string,
					waitOf(itemIndex)!,
					checks,
				);
				waited.set(itemIndex, { ...json, ...settlementFields(settlement) });
			} catch (error) {
				// The payout was sent: a failed check does not make it a failed item.
				const waitError = (error as Error).message;
				waited.set(itemIndex, { ...json, settled: false, finalStatus: null, waitError });
			}
		}),
	);
	return waited;
}
