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

interface Waiter<T> {
	values: string[];
	resolve: (result: T) => void;
	reject: (error: unknown) => void;
}

/**
 * Joins `values` to the call of row `row` waiting in `pending`, or starts one in this process's
 * order; `call` makes it for every waiter of the batch (with their values, once each).
 */
function joinCall<T>(
	pending: Map<string, Array<Waiter<T>>>,
	row: string,
	values: string[],
	call: (batch: Array<Waiter<T>>, all: string[]) => Promise<void>,
): Promise<T> {
	return new Promise<T>((resolve, reject) => {
		const waiters = pending.get(row);
		if (waiters !== undefined) {
			waiters.push({ values, resolve, reject });
			return;
		}
		const batch: Array<Waiter<T>> = [{ values, resolve, reject }];
		pending.set(row, batch);
		void oneAtATime(async () => {
			// Started: a call asked from now on waits for the next one.
			pending.delete(row);
			try {
				await call(batch, [...new Set(batch.flatMap((w) => w.values))]);
			} catch (error) {
				for (const waiter of batch) waiter.reject(error);
			}
		});
	});
}

/** Per row (and options): the writes waiting for their turn, not yet started. */
const waiting = new Map<string, Array<Waiter<Written>>>();

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
	return await joinCall(waiting, row, values, async (batch, all) => {
		const { found, ms } = await write(all);
		const there = new Set(found);
		for (const waiter of batch) {
			waiter.resolve({ found: new Set(waiter.values.filter((v) => there.has(v))), ms });
			for (const value of waiter.values) there.add(value);
		}
	});
}

/** Per row: the removals waiting for their turn, not yet started. */
const removing = new Map<string, Array<Waiter<void>>>();

/**
 * Removes `values` from the row `row`, in this process's order, in one call with the other
 * removals of that row still waiting there (a burst of trigger events ends in a few calls).
 */
export async function mergedRemove(
	row: string,
	values: string[],
	remove: (values: string[]) => Promise<unknown>,
): Promise<void> {
	await joinCall(removing, row, values, async (batch, all) => {
		await remove(all);
		for (const waiter of batch) waiter.resolve();
	});
}
