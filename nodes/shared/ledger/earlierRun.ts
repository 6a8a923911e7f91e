/**
 * What a run found of an earlier run of the same rows (queue mode), said in its output and in
 * n8n's log: the rows it sent for a run that claimed them and never sent them (its worker may
 * have died), and the rows that run was sending with no answer recorded (unknown).
 */
import type { IExecuteFunctions } from 'n8n-workflow';

export interface EarlierRun {
	takenOver: number;
	inFlight: number;
}

const rows = (count: number) => (count === 1 ? '1 row' : `${count} rows`);

export function noteEarlierRun(
	context: IExecuteFunctions,
	{ takenOver, inFlight }: EarlierRun,
	takeoverWaitMs: number,
): void {
	const messages: string[] = [];
	if (takenOver > 0)
		messages.push(
			`${rows(takenOver)} had been reserved by an earlier run that never sent them (its worker may have died): this run sent them, after waiting ${Number((takeoverWaitMs / 1000).toFixed(1))} s in case that run was still alive.`,
		);
	if (inFlight > 0)
		messages.push(
			`${rows(inFlight)} came out "already submitted" with outcome "unknown": an earlier run was sending them and recorded no answer (it may have died mid-send). Check each one by its reference or idempotencyKey (Transaction → Get, or the provider's dashboard); resend only those not paid with Duplicate Protection → Resend Only These Keys, then empty that field.`,
		);
	for (const message of messages) {
		context.logger?.warn(`wallet-payments: ${message}`);
		context.addExecutionHints?.({ type: 'warning', location: 'outputPane', message });
	}
}
