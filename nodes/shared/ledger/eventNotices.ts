/**
 * What the trigger tells the user about an event it could not settle: the run's error (answered
 * 200, not passed on) and the log line for a pass whose record could not be made sure of.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * A pass whose `E` could not be made sure of after its run went on: a later copy may find no `E`
 * and pass the event again (the node after it still pays once: the event's key is in its key).
 */
export function warnUnsure(
	context: IExecuteFunctions,
	keys: string[],
	decided: Array<PromiseSettledResult<boolean>>,
	settled: Array<PromiseSettledResult<boolean>>,
) {
	keys.forEach((key, index) => {
		const outcome = settled[index];
		if (decided[index].status !== 'fulfilled' || outcome.status !== 'rejected') return;
		const cause = outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason);
		context.logger?.warn(
			`wallet-payments trigger: ${named(key)} was passed on, but its record could not be made sure of (n8n's store: ${cause}); a later copy may pass it again`,
		);
	});
}

/** How an event is named to the user: its name, data.id and status. */
function named(key: string): string {
	try {
		const [event, id, status] = JSON.parse(key) as [string, string, string | null];
		return `${event} ${id}${status === null ? '' : ` (${status})`}`;
	} catch {
		return key;
	}
}

export function notPassed(
	context: IExecuteFunctions,
	keys: string[],
	results: Array<PromiseSettledResult<boolean>>,
	takeoverWaitMs: number | undefined,
): NodeOperationError {
	const reason = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
	const cause = reason.reason instanceof Error ? reason.reason.message : String(reason.reason);
	const wait =
		takeoverWaitMs === undefined
			? ''
			: `, after up to ${takeoverWaitMs / 1000} s when another run may still hold it`;
	return new NodeOperationError(
		context.getNode(),
		`Answered 200, not passed on: ${keys.map(named).join(', ')} (n8n's store: ${cause})`,
		{
			description: `The delivery was answered 200 and nothing after the trigger ran for this event. Retry this execution: it passes the event on${wait}.`,
		},
	);
}
