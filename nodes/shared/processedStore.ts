/**
 * n8n's own de-duplication store (the database table behind the Remove Duplicates node), as both
 * nodes use it: values recorded per workflow and node, kept after the execution, seen by every
 * later execution, retry and worker that shares the database.
 *
 * n8n's store reads, changes and writes one row per node without a lock. Every call from this
 * package goes through one queue, so that two executions in this process cannot interleave
 * between the read and the write and both find a value new. Across processes (queue-mode
 * workers) nothing serializes the calls: the first insert of a node's row can collide (retried
 * here), and two read-change-writes at the same moment can lose one's values (README, "Running
 * in queue mode").
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

let queue: Promise<unknown> = Promise.resolve();

function oneAtATime<T>(task: () => Promise<T>): Promise<T> {
	const run = queue.then(task, task);
	queue = run.catch(() => undefined);
	return run;
}

/**
 * A unique-key violation on the store's row: two processes (queue-mode workers) recorded this
 * node's first values at the same moment, both found no row and both inserted one. The losing
 * insert wrote nothing, and the row now exists.
 */
function isRowRace(error: unknown): boolean {
	const message = error instanceof Error ? error.message : String(error);
	return /duplicate key|unique constraint|ER_DUP_ENTRY/i.test(message);
}

/** Runs a store call again after a row race (up to 3 tries): then it updates the row the other made. */
async function afterRowRace<T>(task: () => Promise<T>): Promise<T> {
	for (let attempt = 1; attempt < 3; attempt++) {
		const tried = await task().then(
			(value) => ({ ok: true as const, value }),
			(error: unknown) => ({ ok: false as const, error }),
		);
		if (tried.ok) return tried.value;
		// Anything else than the collision is n8n's error, passed on unchanged.
		if (!isRowRace(tried.error)) return await Promise.reject(tried.error);
	}
	return await task();
}

export interface ProcessedStore {
	/** Records the values; returns those that were already recorded. */
	record(values: string[]): Promise<string[]>;
	remove(values: string[]): Promise<void>;
	/** Runs several store calls with nothing from another execution in between. */
	atomically<T>(task: () => Promise<T>): Promise<T>;
}

/**
 * The store of this node of this workflow, keeping the last `maxEntries` values. Fails (sends
 * nothing) where n8n cannot keep it: no store in this n8n, or a workflow never saved.
 */
export function processedStore(context: IExecuteFunctions, maxEntries: number): ProcessedStore {
	const { checkProcessedAndRecord, removeProcessed } = context.helpers;
	if (typeof checkProcessedAndRecord !== 'function' || typeof removeProcessed !== 'function') {
		throw new NodeOperationError(context.getNode(), 'This n8n has no de-duplication store, so nothing was done', {
			description: 'Update n8n: the store comes with the Remove Duplicates node (n8n 1.70 and later).',
		});
	}
	if (!context.getWorkflow().id) {
		throw new NodeOperationError(context.getNode(), 'Save the workflow first: nothing was sent', {
			description: 'n8n remembers which items were done per saved workflow, so that no re-run does them twice; an unsaved workflow has no place to remember them.',
		});
	}
	const options = { mode: 'entries', maxEntries } as const;
	let inside = false;
	const guarded = <T>(task: () => Promise<T>) => (inside ? task() : oneAtATime(task));
	return {
		record: async (values) =>
			await guarded(async () =>
				(await afterRowRace(async () => await checkProcessedAndRecord.call(context.helpers, values, 'node', options))).processed.map(String),
			),
		remove: async (values) =>
			await guarded(async () => await afterRowRace(async () => await removeProcessed.call(context.helpers, values, 'node', options))),
		atomically: async (task) =>
			await oneAtATime(async () => {
				inside = true;
				try {
					return await task();
				} finally {
					inside = false;
				}
			}),
	};
}
