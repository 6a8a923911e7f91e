/**
 * This process's order of store calls: one at a time, across every workflow and node, so that two
 * executions in this process never interleave between a call's read and its write. Writes of the
 * same row that wait in that order together are made as one call (a group commit): a burst of
 * trigger events on a worker makes a few calls instead of three per event, each of which holds
 * one of n8n's pool connections (docs/ledger.md, "Safe by default").
 */
let queue: Promise<unknown> = Promise.resolve();

export function oneAtATime<T>(task: () => Promise<T>): Promise<T> {
	const run = queue.then(task, task);
	queue = run.catch(() => undefined);
	return run;
}

/** One write of the row: what it found there, and how long it took. */
export interface Written {
	found: Set<string>;
	ms: number;
}

interface Waiter {
	values: string[];
	resolve: (written: Written) => void;
	reject: (error: unknown) => void;
}

/** Per row (and options): the writes waiting for their turn, not yet started. */
const waiting = new Map<string, Waiter[]>();

/**
 * Records `values` in the row `row`, in this process's order, together with the other writes of
 * that row still waiting there. Each caller gets what it would have found had the writes run one
 * after another in the order they were asked: what the row had, and what a caller before it in
 * the same call recorded (two claims of one event in one merged write: the first gets it). `write`
 * is the first caller's; the row is the same whichever execution makes the call.
 */
export async function mergedWrite(
	row: string,
	values: string[],
	write: (values: string[]) => Promise<Written>,
): Promise<Written> {
	return await new Promise<Written>((resolve, reject) => {
		const waiters = waiting.get(row);
		if (waiters !== undefined) {
			waiters.push({ values, resolve, reject });
			return;
		}
		const batch: Waiter[] = [{ values, resolve, reject }];
		waiting.set(row, batch);
		void oneAtATime(async () => {
			// Started: a write asked from now on waits for the next call.
			waiting.delete(row);
			try {
				const { found, ms } = await write([...new Set(batch.flatMap((w) => w.values))]);
				const there = new Set(found);
				for (const waiter of batch) {
					waiter.resolve({ found: new Set(waiter.values.filter((v) => there.has(v))), ms });
					for (const value of waiter.values) there.add(value);
				}
			} catch (error) {
				for (const waiter of batch) waiter.reject(error);
			}
		});
	});
}
