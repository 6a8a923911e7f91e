/**
 * Whether n8n's store can keep as many values as a caller keeps. n8n keeps a node's values in one
 * text column: without a limit on PostgreSQL and SQLite, 64 KB on MySQL and MariaDB (n8n 1.x),
 * about 2,400 values of 27 bytes. A money-moving node keeps up to 620,000 (KEYS_REMEMBERED): there
 * its protection would end once the row is full. So before a row's first record in a process, a
 * caller that keeps more than FITS_ANY_DATABASE values probes once: it records PROBE_VALUES values
 * (over 64 KB), reads them back and removes them. A database that cannot keep them (its error for
 * a value too long, or a row no longer readable) makes every call refuse, before anything is
 * recorded or sent. docs/ledger.md.
 */
import { randomUUID } from 'crypto';
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** Values a row holds on every database n8n supports (64 KB of 27-byte values, with room to spare). */
export const FITS_ANY_DATABASE = 2000;
const PROBE_VALUES = 2500;

/** Per row (workflow and node) probed in this process: whether it holds more than 64 KB. */
const probed = new Map<string, boolean>();

/** What MySQL and MariaDB answer for a value over the column (strict mode), or a row cut short (not strict). */
function isCapped(error: unknown): boolean {
	const message = error instanceof Error ? error.message : String(error);
	return /data too long|ER_DATA_TOO_LONG|end of JSON input|in JSON at position|not valid JSON/i.test(
		message,
	);
}

export function cappedStoreError(context: IExecuteFunctions): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		'n8n’s database cannot keep this node’s duplicate records, so nothing was sent',
		{
			description:
				'n8n keeps each node’s records in one text column. On MySQL and MariaDB that column holds 64 KB, about 2,400 records; this node keeps up to 620,000, so that no re-run pays anything twice. Run n8n on PostgreSQL or SQLite (n8n 2.x supports only those). The Wallet Payments Trigger works on MySQL and MariaDB with a De-Duplication Window up to 2,000.',
		},
	);
}

export interface ProbeCalls {
	record(values: string[]): Promise<unknown>;
	/** Reads the row back (recording these values again). */
	readBack(values: string[]): Promise<unknown>;
	remove(values: string[]): Promise<unknown>;
}

/** Whether the row was probed in this process, and its answer (undefined: not yet). */
export function probedRoom(rowKey: string): boolean | undefined {
	return probed.get(rowKey);
}

/** Probes the row once per process (see the top); throws cappedStoreError where it cannot hold. */
export async function ensureRoom(
	context: IExecuteFunctions,
	rowKey: string,
	calls: ProbeCalls,
): Promise<void> {
	let holds = probed.get(rowKey);
	if (holds === undefined) {
		const id = randomUUID();
		const values = Array.from({ length: PROBE_VALUES }, (_, i) => `n8n-probe:${id}:${i}`);
		const probe = async () => {
			await calls.record(values);
			// Read back: a row cut short at 64 KB (MySQL without strict mode) is no longer JSON.
			await calls.readBack(values);
			await calls.remove(values);
		};
		// Any other error of the database is n8n's, passed on unchanged (and the probe made again).
		const room = await probe().then(
			() => true,
			async (error: unknown): Promise<boolean> =>
				isCapped(error) ? false : await Promise.reject(error),
		);
		probed.set(rowKey, room);
		holds = room;
	}
	if (!holds) throw cappedStoreError(context);
}
