/**
 * Issue #29, point 1: records are claims across n8n processes unless the credential says n8n is
 * one process. A credential as a user creates it, or one saved before "n8n Runs As" existed
 * (with or without the old Queue Mode switch), claims.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { WalletPaymentsApi } from '../../credentials/WalletPaymentsApi.credentials';
import { crossProcessWait, DEFAULT_CLAIM_WAIT_MS, MIN_CLAIM_WAIT_MS, ONE_PROCESS } from '../../nodes/shared/ledger';

const contextWith = (data: Record<string, unknown>) =>
	({ getCredentials: async () => data }) as unknown as IExecuteFunctions;

describe('n8n Runs As: claims unless one process is chosen', () => {
	const field = new WalletPaymentsApi().properties.find((p) => p.name === 'processes')!;

	test('the credential as created says several processes (or not sure)', () => {
		expect(field.default).toBe('several');
		expect(field.options?.map((o) => (o as { value: string }).value)).toEqual(['several', ONE_PROCESS]);
	});

	test.each([
		['as created in the UI', { processes: 'several' }],
		['as stored by an import without the field', {}],
		['saved before the field, Queue Mode off', { queueMode: false }],
		['saved before the field, Queue Mode on', { queueMode: true, claimWaitMs: 4000 }],
	])('%s: claims with the default wait', async (_label, data) => {
		expect(await crossProcessWait(contextWith(data))).toBe(DEFAULT_CLAIM_WAIT_MS);
	});

	test('One Process Only: no claim', async () => {
		expect(await crossProcessWait(contextWith({ processes: ONE_PROCESS, claimWaitMs: 4000 }))).toBeUndefined();
	});

	test('Claim Wait is used, at least the minimum, the default when not a number', async () => {
		expect(await crossProcessWait(contextWith({ claimWaitMs: 6000 }))).toBe(6000);
		expect(await crossProcessWait(contextWith({ claimWaitMs: 10 }))).toBe(MIN_CLAIM_WAIT_MS);
		expect(await crossProcessWait(contextWith({ claimWaitMs: 'soon' }))).toBe(DEFAULT_CLAIM_WAIT_MS);
	});
});
