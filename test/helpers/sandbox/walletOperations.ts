import type { IDataObject, INodeParameterResourceLocator, INodeParameters, IRun, ResourceMapperValue } from 'n8n-workflow';

import type { SandboxFixture } from './sandbox';

/**
 * Calls the sandbox API directly (not through the node), e.g. to set up a beneficiary, and
 * clears the request log afterwards so tests see only the node's own requests.
 */
export async function callApi(
	fixture: SandboxFixture,
	method: 'GET' | 'POST',
	path: string,
	body?: IDataObject,
): Promise<IDataObject> {
	const response = await fetch(`${fixture.sandbox.url}${path}`, {
		method,
		headers: {
			authorization: `Bearer ${fixture.sandbox.apiKey}`,
			'content-type': 'application/json',
			accept: 'application/json',
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const json = (await response.json()) as IDataObject;
	if (response.status !== 200 || json.status !== true) {
		throw new Error(`Set-up call ${method} ${path} failed: ${response.status} ${JSON.stringify(json)}`);
	}
	fixture.sandbox.clearRequests();
	return json.data as IDataObject;
}

/** A picker's value as n8n's editor stores it ("By ID" mode, or "From List" with the picked ID). */
export function idLocator(value: string, mode: 'id' | 'list' = 'id'): INodeParameterResourceLocator {
	return { __rl: true, mode, value };
}

/** The destination form's value as n8n's editor stores a resource mapper ("Map Each Column Manually"). */
export function destinationForm(value: ResourceMapperValue['value']): ResourceMapperValue {
	return { mappingMode: 'defineBelow', value, matchingColumns: [], schema: [], attemptToConvertTypes: false, convertFieldsToString: false };
}

export const KENYA_MOBILE_MONEY = {
	type: 'MOBILEMONEY',
	network: 'MPESA',
	accountName: 'Ann Doe',
	accountNumber: '254712345678',
};

/** A saved Kenyan mobile-money beneficiary (status SUCCESS), created through the API. */
export async function createBeneficiary(fixture: SandboxFixture, overrides: IDataObject = {}): Promise<IDataObject> {
	return await callApi(fixture, 'POST', '/api/v2/beneficiaries', {
		country: 'KE',
		currency: 'KES',
		customerEmail: 'ann@example.com',
		destination: KENYA_MOBILE_MONEY,
		...overrides,
	});
}

/** The node's parameters for Payout → Initiate of USD 10.50 (minor units), with `overrides`. */
export function payoutInitiate(overrides: INodeParameters = {}): INodeParameters {
	return {
		resource: 'payout',
		operation: 'initiate',
		amount: 1050,
		sourceWalletCurrency: 'USD',
		customerEmail: 'ann@example.com',
		description: 'Invoice 42',
		...overrides,
	};
}

/** Payout → Initiate to a saved beneficiary, each item's `amount` in major units, with `overrides`. */
export function payoutToSaved(beneficiaryId: string, overrides: INodeParameters = {}): INodeParameters {
	return payoutInitiate({
		amountUnit: 'major',
		amount: '={{ $json.amount }}',
		beneficiaryMode: 'id',
		beneficiaryId: idLocator(beneficiaryId),
		...overrides,
	});
}

/** A v2 payout to a fresh saved beneficiary, initiated through the API (for set-ups). */
export async function initiatePayout(
	fixture: SandboxFixture,
	{ amount = 500, description = 'set-up payout' }: { amount?: number; description?: string } = {},
): Promise<IDataObject> {
	const beneficiary = await createBeneficiary(fixture);
	return await callApi(fixture, 'POST', '/api/v2/wallets/payout/initialize', {
		amount,
		sourceWalletCurrency: 'USD',
		customerEmail: 'ann@example.com',
		description,
		beneficiaryId: beneficiary.id as string,
	});
}

export const ISO_TIMESTAMP = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
export const UUID = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

/** A clock the sandbox reads; tests move it forward to expire quotes and payouts. */
export function movableClock() {
	let offsetMs = 0;
	return {
		now: () => new Date(Date.now() + offsetMs),
		advanceSeconds(seconds: number) {
			offsetMs += seconds * 1000;
		},
		reset() {
			offsetMs = 0;
		},
	};
}

/** Payout → Initiate of each item's cents to one saved beneficiary, keyed by the item's invoice. */
export const payoutBy = (beneficiaryId: string) =>
	payoutInitiate({
		amount: '={{ $json.cents }}',
		description: '={{ $json.invoice }}',
		beneficiaryMode: 'id',
		beneficiaryId: idLocator(beneficiaryId),
		duplicateProtection: { idempotencyKey: '={{ $json.invoice }}' },
	});

/** The hints (notices above the output) of every node in a run. */
export const hintsOf = (run: IRun) =>
	Object.values(run.data.resultData.runData).flatMap((runs) => runs.flatMap((r) => r.hints ?? []));
