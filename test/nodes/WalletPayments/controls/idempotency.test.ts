/** The idempotency key and reference derivation (controls/idempotency.ts). */
import { canonicalJson, derivedKey, referenceFromKey, type KeyParts } from '../../../../nodes/WalletPayments/controls/idempotency';

const base: KeyParts = {
	workflowId: 'wf-1',
	nodeId: 'node-1',
	origin: 'origin-of-run-1',
	itemIndex: 0,
	request: { amount: 1000, beneficiaryId: 'b-1', sourceWalletCurrency: 'USD' },
};

describe('derivedKey', () => {
	test('is the same for the same workflow, node, run origin, item and request (a retry, a re-run, a repeated event)', () => {
		expect(derivedKey({ ...base })).toBe(derivedKey({ ...base, request: { ...base.request } }));
		expect(derivedKey(base)).toMatch(/^n8n:[0-9a-f]{64}$/);
	});

	test('does not depend on key order or on the reference sent with the request', () => {
		const reordered = { sourceWalletCurrency: 'USD', beneficiaryId: 'b-1', amount: 1000 };
		expect(derivedKey({ ...base, request: reordered })).toBe(derivedKey(base));
		expect(derivedKey({ ...base, request: { ...base.request, reference: 'n8n-abc' } })).toBe(derivedKey(base));
	});

	test.each<[string, Partial<KeyParts>]>([
		['another run (a new schedule tick or event)', { origin: 'origin-of-run-2' }],
		['another item of the same run', { itemIndex: 1 }],
		['another amount', { request: { ...base.request, amount: 1001 } }],
		['another beneficiary (the data was fixed)', { request: { ...base.request, beneficiaryId: 'b-2' } }],
		['another node', { nodeId: 'node-2' }],
		['another workflow', { workflowId: 'wf-2' }],
	])('differs for %s', (_name, change) => {
		expect(derivedKey({ ...base, ...change })).not.toBe(derivedKey(base));
	});

	test('an item of an identical row at another position is another payment', () => {
		expect(derivedKey({ ...base, itemIndex: 2 })).not.toBe(derivedKey({ ...base, itemIndex: 1 }));
	});
});

describe('referenceFromKey', () => {
	test('gives the same reference for the same key, and a different one per node and workflow', () => {
		const reference = referenceFromKey('wf-1', 'node-1', 'INV-42');
		expect(reference).toMatch(/^n8n-[0-9a-f]{24}$/);
		expect(referenceFromKey('wf-1', 'node-1', 'INV-42')).toBe(reference);
		expect(referenceFromKey('wf-1', 'node-2', 'INV-42')).not.toBe(reference);
		expect(referenceFromKey('wf-2', 'node-1', 'INV-42')).not.toBe(reference);
		expect(referenceFromKey('wf-1', 'node-1', 'INV-43')).not.toBe(reference);
	});
});

test('canonicalJson sorts keys at every depth and drops undefined values', () => {
	expect(canonicalJson({ b: 1, a: { d: [2, { y: 1, x: 2 }], c: undefined } })).toBe('{"a":{"d":[2,{"x":2,"y":1}]},"b":1}');
	expect(canonicalJson(undefined)).toBe('null');
});
