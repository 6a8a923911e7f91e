/**
 * A run in which any item was already submitted says so above its output (issue #31, point 6;
 * issue #46, point 3: not only when every item was): a monthly payroll started by hand with last
 * month's rows, or with some rows unchanged, would otherwise skip them silently.
 */
import { useSandbox } from '../../../helpers/sandbox/sandbox';
import { createBeneficiary, hintsOf, payoutBy } from '../../../helpers/sandbox/walletOperations';

const fixture = useSandbox();

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
