/**
 * nodes/shared/processedStore.ts against n8n's store behaviour in queue mode: two workers that
 * record a node's first values at the same moment both insert its row, and one insert fails on
 * the unique key (measured: test/queue/throughput.queue.test.ts). That call is made again and
 * then updates the row; other errors are not retried.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { processedStore } from '../nodes/shared/processedStore';

const DUPLICATE_ROW = new Error('duplicate key value violates unique constraint "PK_ca04b9d8dc72de268fe07a65773"');

function context(record: jest.Mock, remove: jest.Mock = jest.fn(async () => undefined)) {
	return {
		helpers: { checkProcessedAndRecord: record, removeProcessed: remove },
		getNode: () => ({ id: 'node-1', name: 'Pay' }),
		getWorkflow: () => ({ id: 'workflow-1' }),
	} as unknown as IExecuteFunctions;
}

describe('processedStore when another worker inserted the row first', () => {
	test('record: the insert that lost is made again, as an update, and its answer is used', async () => {
		const record = jest
			.fn()
			.mockRejectedValueOnce(DUPLICATE_ROW)
			.mockResolvedValueOnce({ new: ['k1'], processed: [] });
		await expect(processedStore(context(record), 100).record(['k1'])).resolves.toEqual([]);
		expect(record).toHaveBeenCalledTimes(2);
	});

	test('remove: made again after the same collision', async () => {
		const remove = jest.fn().mockRejectedValueOnce(DUPLICATE_ROW).mockResolvedValueOnce(undefined);
		await processedStore(context(jest.fn(), remove), 100).remove(['k1']);
		expect(remove).toHaveBeenCalledTimes(2);
	});

	test('other errors are not retried; a collision that keeps happening gives up after 3 tries', async () => {
		const broken = jest.fn().mockRejectedValue(new Error('connection terminated'));
		await expect(processedStore(context(broken), 100).record(['k1'])).rejects.toThrow('connection terminated');
		expect(broken).toHaveBeenCalledTimes(1);
		const colliding = jest.fn().mockRejectedValue(DUPLICATE_ROW);
		await expect(processedStore(context(colliding), 100).record(['k1'])).rejects.toThrow('duplicate key');
		expect(colliding).toHaveBeenCalledTimes(3);
	});
});
