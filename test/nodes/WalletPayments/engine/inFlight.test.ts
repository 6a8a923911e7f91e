import { inFlight } from '../../../../nodes/WalletPayments/engine/inFlight';

test('at most `most` tasks run at once; the others start in order as places free; failures free theirs', async () => {
	const limit = inFlight(2);
	let running = 0;
	let most = 0;
	const started: number[] = [];
	const task = (n: number) => async () => {
		started.push(n);
		running++;
		most = Math.max(most, running);
		await new Promise((resolve) => setTimeout(resolve, 5));
		running--;
		if (n === 1) throw new Error('refused');
		return n;
	};
	const results = await Promise.allSettled([0, 1, 2, 3, 4].map((n) => limit(task(n))));
	expect(most).toBe(2);
	expect(started).toEqual([0, 1, 2, 3, 4]);
	expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'refused'))).toEqual([0, 'refused', 2, 3, 4]);
});
