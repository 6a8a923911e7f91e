/**
 * An Idempotency Key built from the clock or from chance is warned about above the output
 * (changingKey.ts): a re-run would make a new key and pay again.
 */
import { useSandbox } from '../../../helpers/sandbox/sandbox';
import { createBeneficiary, hintsOf, payoutBy } from '../../../helpers/sandbox/walletOperations';

const fixture = useSandbox();

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

test('a Reference built from the clock warns too (it is the key when given, issue #57); one from the data does not', async () => {
	const collection = (reference: string) => ({
		resource: 'collection',
		operation: 'initialize',
		country: 'NG',
		currency: 'NGN',
		customerEmail: '={{ $json.email }}',
		amount: 250000,
		reference,
	});
	const clock = await fixture.run(collection("=INV-{{ $now.toFormat('yyyy-MM') }}-{{ $json.id }}"), { items: [{ id: 'C-1', email: 'ann@example.com' }] });
	expect(clock.error).toBeUndefined();
	expect(hintsOf(clock.run).map((hint) => hint.message)).toEqual([
		'The Reference uses $now, which changes from one run to the next: a Retry on another day, or the same rows run again, makes new keys and sends them again. Build the key from the data instead, e.g. {{ $json.invoiceId }}-{{ $json.period }}.',
	]);
	const data = await fixture.run(collection('=INV-{{ $json.period }}-{{ $json.id }}'), { items: [{ id: 'C-2', email: 'bob@example.com', period: '2026-12' }] });
	expect(data.error).toBeUndefined();
	expect(hintsOf(data.run)).toEqual([]);
});
