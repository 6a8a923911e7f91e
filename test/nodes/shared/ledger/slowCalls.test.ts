/**
 * A store call over half the claim wait is named above the payout run's output (slowCalls.ts).
 */
import { slowRecordCalls } from '../../../helpers/n8n/deduplication';
import { useSandbox } from '../../../helpers/sandbox/sandbox';
import { createBeneficiary, hintsOf, payoutBy } from '../../../helpers/sandbox/walletOperations';

const fixture = useSandbox();

test('a store call over half the claim wait: the payout run says so above its output; not in a run with fast calls', async () => {
	const beneficiary = await createBeneficiary(fixture);
	const parameters = payoutBy(beneficiary.id as string);
	const queue = { processes: null, claimWaitMs: 200 } as const;
	const fast = await fixture.run(parameters, { items: [{ invoice: 'INV-21', cents: 1000 }], credentials: queue });
	expect(fast.error).toBeUndefined();
	expect(hintsOf(fast.run)).toEqual([]);

	slowRecordCalls(120);
	const slow = await fixture.run(parameters, { items: [{ invoice: 'INV-22', cents: 1000 }], credentials: queue });
	slowRecordCalls(0);
	expect(slow.error).toBeUndefined();
	expect(slow.items.map((i) => i.json.alreadySubmitted ?? false)).toEqual([false]);
	expect(hintsOf(slow.run)).toEqual([
		{
			type: 'warning',
			location: 'outputPane',
			message: expect.stringMatching(/^One of n8n's store calls took 1\d\d ms, more than half the claim wait \(200 ms\)\. Nothing was done twice/),
		},
	]);
});
