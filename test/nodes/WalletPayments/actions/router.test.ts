/**
 * The router (actions/router.ts): an operation missing from the resources' table fails before
 * anything is sent; a listed one runs for every item, its outputs in item order.
 */
import { useSandbox } from '../../../helpers/sandbox/sandbox';

const fixture = useSandbox();

test('an operation the table does not have: the run fails naming it, nothing sent', async () => {
	const result = await fixture.run({ resource: 'payout', operation: 'sendTwice' });
	expect(result.error?.message).toBe('The operation "sendTwice" of "payout" is not supported');
	expect(fixture.apiRequests()).toHaveLength(0);
});

test('a listed operation runs once per item, outputs paired in item order', async () => {
	const result = await fixture.run(
		{ resource: 'country', operation: 'getRequirements', countryCode: '={{ $json.country }}' },
		{ items: [{ country: 'GH' }, { country: 'KE' }, { country: 'NG' }] },
	);
	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => [item.json.code, item.pairedItem])).toEqual([
		['GH', { item: 0 }],
		['KE', { item: 1 }],
		['NG', { item: 2 }],
	]);
});
