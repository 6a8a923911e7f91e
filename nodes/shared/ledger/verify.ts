/**
 * The check that records held. Across n8n processes a store call that read the node's row before
 * this process wrote it writes the row back without this process's values (measured: up to 3 in
 * 10 lost with 2 workers). So every value this store records is checked again once it is older
 * than a store call can take: one another process's call wrote over is written again, and
 * checked again later, until each one held.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

/**
 * How long one store call (n8n reads the node's row, then writes it back) is taken to last at
 * most: a value still in the row this long after it was written can no longer be written over by
 * a call that read the row before it.
 */
export const VERIFY_AFTER_MS = 1000;
/**
 * A check waits at least this many times the longest store call this process has seen (a large
 * row makes every call slower, and another process's calls take about as long as this one's).
 */
const VERIFY_CALLS = 3;
/**
 * Node's timers can fire a millisecond or so before Date.now() says verify's wait is over: a value
 * that much younger still counts as old enough, instead of being checked once more.
 */
const TIMER_SLACK_MS = 5;
/** Checks of the same values before giving up (each one VERIFY_AFTER_MS after the last write). */
const VERIFY_ROUNDS = 20;

/** One store call that records values: those already there, and how long it took. */
type Write = (values: string[]) => Promise<{ found: Set<string>; ms: number }>;

/** The bookkeeping of one store's values not yet seen to have held, with when each was written. */
export function verification(context: IExecuteFunctions, write: Write) {
	const unverified = new Map<string, number>();
	/** The longest store call seen, in ms: a check waits for calls of that length to be over. */
	let longestCall = 0;
	const waitMs = () => Math.max(VERIFY_AFTER_MS, VERIFY_CALLS * longestCall);

	/**
	 * One store call: records `values`, and checks again the unverified values that are old enough
	 * (a check is a record: a value found missing is written again). Returns `values` already there.
	 */
	const record = async (values: string[], checkAll = false) => {
		const now = Date.now();
		const wait = waitMs();
		/** Written long enough before this call that no call which read the row earlier is still out. */
		const oldEnough = (at: number) => now - at >= wait - TIMER_SLACK_MS;
		const asked = new Set(values);
		const due = [...unverified]
			.filter(([value, at]) => (checkAll || oldEnough(at)) && !asked.has(value))
			.map(([value]) => value);
		const sent = [...values, ...due];
		if (sent.length === 0) return [];
		const { found } = await write(sent);
		const writtenAt = Date.now();
		longestCall = Math.max(longestCall, writtenAt - now);
		// One not found has just been written (again); one found long enough after its write held.
		for (const value of sent) {
			if (!found.has(value)) unverified.set(value, writtenAt);
			else if (unverified.has(value) && oldEnough(unverified.get(value)!)) unverified.delete(value);
		}
		return values.filter((value) => found.has(value));
	};

	return {
		record,
		/** These values are not to be written again (removed, or another claim's). */
		disown: (values: string[]) => {
			for (const value of values) unverified.delete(value);
		},
		/**
		 * Waits until every value recorded here is VERIFY_AFTER_MS old (or VERIFY_CALLS times the
		 * longest store call seen, when that is longer) and checks it is still in the store, writing
		 * again (and checking again later) any value another process's call wrote over. `serial`
		 * runs a call in this process's order of store calls.
		 */
		verify: async (serial: <T>(task: () => Promise<T>) => Promise<T>) => {
			for (let round = 0; round < VERIFY_ROUNDS && unverified.size > 0; round++) {
				const lastWrite = Math.max(...unverified.values());
				await sleep(Math.max(0, lastWrite + waitMs() - Date.now()));
				await serial(async () => await record([], true));
			}
			if (unverified.size > 0) {
				throw new NodeOperationError(
					context.getNode(),
					`n8n's de-duplication store kept losing ${unverified.size} of this node's records`,
					{
						description: `Another n8n process wrote this node's row over them ${VERIFY_ROUNDS} times in a row. What this run did is done; a re-run may not know it. Check before running these items again.`,
					},
				);
			}
		},
	};
}
