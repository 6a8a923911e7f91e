/**
 * A run in which any item was already submitted says so above its output (issue #31, point 6;
 * issue #46, point 3: not only when every item was): a monthly payroll started by hand with last
 * month's rows, or with some rows unchanged, would otherwise skip them silently.
 */
import type { IRun } from 'n8n-workflow';

import { slowRecordCalls } from '../../../helpers/deduplication';
import { useSandbox } from '../../../helpers/sandbox';
import { createBeneficiary, idLocator, payoutInitiate } from '../../../helpers/walletOperations';

const fixture = useSandbox();

const hintsOf = (run: IRun) => Object.values(run.data.resultData.runData).flatMap((runs) => runs.flatMap((r) => r.hints ?? []));

/** Payout → Initiate of each item's cents to one saved beneficiary, keyed by the item's invoice. */
const payoutBy = (beneficiaryId: string) =>
	payoutInitiate({
		amount: '={{ $json.cents }}',
		description: '={{ $json.invoice }}',
		beneficiaryMode: 'id',
		beneficiaryId: idLocator(beneficiaryId),
		duplicateProtection: { idempotencyKey: '={{ $json.invoice }}' },
	});

test('the same rows again: nothing sent, and a warning says why and what to do for a new period', async () => {
	const beneficiary = await createBeneficiary(fixture);
	const parameters = payoutBy(beneficiary.id as string);
	const items = [
		{ invoice: 'INV-11', cents: 1000 },
		{ invoice: 'INV-12', cents: 2000 },
	];
	const first = await fixture.run(parameters, { items });
	expect(first.error).toBeUndefined();
	expect(hintsOf(first.run)).toEqual([]);

	const again = await fixture.run(parameters, { items });
	expect(again.items.map((i) => i.json.alreadySubmitted)).toEqual([true, true]);
	const today = new Date().toISOString().slice(0, 10);
	const advice =
		"For a new period, such as next month's payroll, put the period from your data in Duplicate Protection → Idempotency Key, e.g. {{ $json.invoiceId }}-{{ $json.period }}; a key made from the date of the run ($now) changes when a run is retried on another day.";
	expect(hintsOf(again.run)).toEqual([
		{
			type: 'warning',
			location: 'outputPane',
			message: `Nothing was sent: all 2 items were already submitted by an earlier run (same idempotency keys, the earliest on ${today}). ${advice}`,
		},
	]);

	// One new row among them: it is sent, and the two repeats are still said.
	const mixed = await fixture.run(parameters, { items: [...items, { invoice: 'INV-13', cents: 3000 }] });
	expect(mixed.items.map((i) => i.json.alreadySubmitted ?? false)).toEqual([true, true, false]);
	expect(hintsOf(mixed.run)).toEqual([
		{
			type: 'warning',
			location: 'outputPane',
			message: `2 of 3 items were not sent: already submitted by an earlier run (same idempotency keys, the earliest on ${today}). ${advice}`,
		},
	]);

	// Every row new: nothing is said.
	const fresh = await fixture.run(parameters, { items: [{ invoice: 'INV-14', cents: 4000 }] });
	expect(fresh.error).toBeUndefined();
	expect(hintsOf(fresh.run)).toEqual([]);
});

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

test('an Idempotency Key built from the clock or from chance: the run warns above its output; one from the data does not', async () => {
	const beneficiary = await createBeneficiary(fixture);
	const withKey = (idempotencyKey: string) => ({ ...payoutBy(beneficiary.id as string), duplicateProtection: { idempotencyKey } });
	const clock = await fixture.run(withKey("={{ $json.invoice }}-{{ $now.toFormat('yyyy-MM') }}"), { items: [{ invoice: 'INV-31', cents: 1000 }] });
	expect(clock.error).toBeUndefined();
	expect(hintsOf(clock.run)).toEqual([
		{
			type: 'warning',
			location: 'outputPane',
			message:
				'The Idempotency Key uses $now, which changes from one run to the next: a Retry on another day, or the same rows run again, makes new keys and sends them again. Build the key from the data instead, e.g. {{ $json.invoiceId }}-{{ $json.period }}.',
		},
	]);
	const chance = await fixture.run(withKey('={{ $json.invoice }}-{{ $execution.id }}'), { items: [{ invoice: 'INV-32', cents: 1000 }] });
	expect(hintsOf(chance.run).map((hint) => hint.message)).toEqual([expect.stringMatching(/^The Idempotency Key uses \$execution\.id/)]);

	const data = await fixture.run(withKey('={{ $json.invoice }}-{{ $json.period }}'), { items: [{ invoice: 'INV-33', cents: 1000, period: '2026-11' }] });
	expect(data.error).toBeUndefined();
	expect(hintsOf(data.run)).toEqual([]);
});
