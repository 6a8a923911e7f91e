/**
 * n8n's own de-duplication store (the database table behind the Remove Duplicates node), as both
 * nodes use it: values recorded per workflow and node, kept after the execution, seen by every
 * later execution, retry and worker that shares the database.
 *
 * n8n's store reads, changes and writes one row per node without a lock. Every call from this
 * package goes through one queue, so that two executions in this process cannot interleave
 * between the read and the write and both find a value new.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

let queue: Promise<unknown> = Promise.resolve();

function oneAtATime<T>(task: () => Promise<T>): Promise<T> {
	const run = queue.then(task, task);
	queue = run.catch(() => undefined);
	return run;
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
				(await checkProcessedAndRecord.call(context.helpers, values, 'node', options)).processed.map(String),
			),
		remove: async (values) => await guarded(async () => await removeProcessed.call(context.helpers, values, 'node', options)),
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
