/**
 * nodes/shared/ledger/capacity.ts through store.ts: on a database whose store row holds 64 KB (n8n
 * 1.x on MySQL or MariaDB: a TEXT column), a money-moving node refuses before it records or sends
 * anything; with room (PostgreSQL, SQLite) the probe leaves the row as it was. The real MariaDB:
 * test/e2e/mariadb.compat.test.ts.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { KEYS_REMEMBERED } from '../../../../nodes/shared/ledger';
import { openStore } from '../../../../nodes/shared/ledger/store';

/** n8n's row as JSON: `{"mode":"entries","data":[…]}` with a 24-character hash per value. */
const rowBytes = (values: number) => 28 + values * 27;

let databases = 0;

/** A node's store row over a column of `columnBytes` (undefined: no limit), strict or not. */
function database(columnBytes: number | undefined, { strict = true } = {}) {
	let row: string[] = [];
	let corrupt = false;
	const record = jest.fn(async (values: string[], _scope: string, options: { maxEntries: number }) => {
		if (corrupt) throw new SyntaxError('Unexpected end of JSON input');
		const before = new Set(row);
		const next = [...row, ...values.filter((value) => !before.has(value))].slice(-options.maxEntries);
		if (columnBytes !== undefined && rowBytes(next.length) > columnBytes) {
			if (strict) throw new Error("ER_DATA_TOO_LONG: Data too long for column 'value' at row 1");
			corrupt = true; // cut at the column's size: no longer JSON
			return { new: values, processed: [] };
		}
		row = next;
		return { new: values.filter((value) => !before.has(value)), processed: values.filter((value) => before.has(value)) };
	});
	const remove = jest.fn(async (values: string[]) => {
		if (corrupt) throw new SyntaxError('Unexpected end of JSON input');
		row = row.filter((value) => !values.includes(value));
	});
	// A workflow of its own: this process remembers what it probed per row.
	const workflowId = `workflow-${++databases}`;
	const context = () =>
		({
			helpers: { checkProcessedAndRecord: record, removeProcessed: remove },
			getNode: () => ({ id: 'node-1', name: 'Pay' }),
			getWorkflow: () => ({ id: workflowId }),
		}) as unknown as IExecuteFunctions;
	return { record, remove, context, row: () => row };
}

describe('a store row of 64 KB (MySQL and MariaDB)', () => {
	test.each([
		['strict mode: the database refuses the value', true],
		['not strict: the database cuts the value short', false],
	])('%s → the node refuses, and nothing is recorded', async (_name, strict) => {
		const db = database(65535, { strict });
		const store = openStore(db.context(), KEYS_REMEMBERED);
		await expect(store.record(['key-1'])).rejects.toThrow('n8n’s database cannot keep this node’s duplicate records, so nothing was sent');
		expect(db.record.mock.calls.some(([values]) => values.includes('key-1'))).toBe(false);
		// Known for the row from then on: the next call refuses without a probe.
		const calls = db.record.mock.calls.length;
		await expect(store.claim(['key-2'], 100)).rejects.toThrow('cannot keep');
		expect(db.record.mock.calls.length).toBe(calls);
	});

	test('a caller that keeps no more than any database holds (the trigger’s window) does not probe', async () => {
		const db = database(65535);
		await expect(openStore(db.context(), 2000).record(['event-1'])).resolves.toEqual([]);
		expect(db.record).toHaveBeenCalledTimes(1);
		expect(db.row()).toEqual(['event-1']);
	});
});

describe('a store row without a limit (PostgreSQL, SQLite)', () => {
	test('the probe is made once per row and leaves nothing behind', async () => {
		const db = database(undefined);
		const context = db.context();
		const store = openStore(context, KEYS_REMEMBERED);
		await expect(store.record(['key-1'])).resolves.toEqual([]);
		await expect(openStore(context, KEYS_REMEMBERED).record(['key-2'])).resolves.toEqual([]);
		expect(db.row()).toEqual(['key-1', 'key-2']);
		// Probe: record, read back, remove; then the two records.
		expect(db.record).toHaveBeenCalledTimes(4);
		expect(db.remove).toHaveBeenCalledTimes(1);
	});

	test('a full row loses no record to the probe', async () => {
		const db = database(undefined);
		const old = Array.from({ length: 3000 }, (_, i) => `old-${i}`);
		const context = db.context();
		await openStore(context, 3000).record(old);
		await openStore(context, 3000).record(['new']);
		expect(db.row()).toEqual([...old.slice(1), 'new']);
	});

	test('another error of the database is passed on, and the probe made again next time', async () => {
		const db = database(undefined);
		db.record.mockRejectedValueOnce(new Error('connection terminated'));
		const context = db.context();
		await expect(openStore(context, KEYS_REMEMBERED).record(['key-1'])).rejects.toThrow('connection terminated');
		await expect(openStore(context, KEYS_REMEMBERED).record(['key-1'])).resolves.toEqual([]);
		expect(db.row()).toEqual(['key-1']);
	});
});
