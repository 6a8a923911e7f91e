/**
 * Issue #29, point 1: records are claims across n8n processes unless the credential says n8n is
 * one process. A credential as a user creates it, or one saved before "n8n Runs As" existed
 * (with or without the old Queue Mode switch), claims.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { WalletPaymentsApi } from '../../../../credentials/WalletPaymentsApi.credentials';
import { readClaimWait, DEFAULT_CLAIM_WAIT_MS, MIN_CLAIM_WAIT_MS, ONE_PROCESS } from '../../../../nodes/shared/ledger';

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
		expect(await readClaimWait(contextWith(data))).toBe(DEFAULT_CLAIM_WAIT_MS);
	});

	test('One Process Only: no claim', async () => {
		expect(await readClaimWait(contextWith({ processes: ONE_PROCESS, claimWaitMs: 4000 }))).toBeUndefined();
	});

	test('Claim Wait is used, at least the minimum, the default when not a number', async () => {
		expect(await readClaimWait(contextWith({ claimWaitMs: 6000 }))).toBe(6000);
		expect(await readClaimWait(contextWith({ claimWaitMs: 10 }))).toBe(MIN_CLAIM_WAIT_MS);
		expect(await readClaimWait(contextWith({ claimWaitMs: 'soon' }))).toBe(DEFAULT_CLAIM_WAIT_MS);
	});
});

describe("reading the setting when n8n's database pool gives no connection in time", () => {
	afterEach(() => jest.useRealTimers());

	// Measured at n8n's default pool (2), 300 deliveries at once: 62 trigger runs failed here, after
	// n8n had answered their deliveries 200.
	test('read again after a wait, as the store calls are, instead of failing the run', async () => {
		jest.useFakeTimers();
		const getCredentials = jest
			.fn()
			.mockRejectedValueOnce(new Error('timeout exceeded when trying to connect'))
			.mockRejectedValueOnce(new Error('timeout exceeded when trying to connect'))
			.mockResolvedValueOnce({ claimWaitMs: 5000 });
		const wait = readClaimWait({ getCredentials } as unknown as IExecuteFunctions);
		await jest.advanceTimersByTimeAsync(3000);
		await expect(wait).resolves.toBe(5000);
		expect(getCredentials).toHaveBeenCalledTimes(3);
	});

	test('any other error is passed on at once', async () => {
		const getCredentials = jest.fn().mockRejectedValue(new Error('Credential with ID "7" does not exist'));
		await expect(readClaimWait({ getCredentials } as unknown as IExecuteFunctions)).rejects.toThrow('does not exist');
		expect(getCredentials).toHaveBeenCalledTimes(1);
	});
});
