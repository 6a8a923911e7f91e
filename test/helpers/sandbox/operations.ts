import { createHash } from 'crypto';

import { canonicalJson, derivedKey, referenceFromKey } from '../../../nodes/WalletPayments/controls/idempotency';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { SandboxFixture } from './sandbox';
import type { RunResult } from '../n8n/runNode';
import { callApi } from './walletOperations';

type Fixture = SandboxFixture;
type RunOptions = Parameters<SandboxFixture['run']>[1];

/**
 * The reference the node sends when none is given: made from the item's derived idempotency key
 * (controls/idempotency.ts): workflow, node, what started the run (the test trigger's item), the
 * item's position and its request body (without the reference).
 */
export function derivedReference(
	body: IDataObject,
	{ itemIndex = 0, trigger = {}, nodeId = 'wallet-node' }: { itemIndex?: number; trigger?: IDataObject; nodeId?: string } = {},
): string {
	const origin = createHash('sha256').update(`Trigger:${canonicalJson([trigger])}`).digest('hex');
	const key = derivedKey({ workflowId: 'test-workflow', nodeId, origin, itemIndex, request: body });
	return referenceFromKey('test-workflow', nodeId, key);
}

export interface ExpectedRequest {
	method: string;
	path: string;
	query?: Record<string, string>;
	body?: unknown;
}

/** Exactly these requests reached the sandbox, in order, each with the credential's Bearer key. */
export function expectRequests(fixture: Fixture, expected: ExpectedRequest[]): void {
	const requests = fixture.apiRequests();
	expect(
		requests.map((request) => ({
			method: request.method,
			path: request.path,
			query: request.query,
			body: request.body,
			authorization: request.headers.authorization,
		})),
	).toEqual(
		expected.map((request) => ({
			method: request.method,
			path: request.path,
			query: request.query ?? {},
			body: request.body,
			authorization: `Bearer ${fixture.sandbox.apiKey}`,
		})),
	);
}

/** The node output's JSON, with every item checked to be paired with input item `pairedWith`. */
export function outputJson(result: RunResult, pairedWith = 0): IDataObject[] {
	expect(result.error).toBeUndefined();
	for (const item of result.items) expect(item.pairedItem).toEqual({ item: pairedWith });
	return result.items.map((item) => item.json);
}

/**
 * Runs the node, expects it to stop on a NodeOperationError whose message names the field,
 * states the problem and names the item, and proves nothing was sent.
 */
export async function expectInvalid(
	fixture: Fixture,
	parameters: INodeParameters,
	field: string,
	problem: string | RegExp,
	options?: RunOptions,
): Promise<void> {
	const result = await fixture.run(parameters, options);
	expect(result.error).toBeDefined();
	expect(result.error?.name).toBe('NodeOperationError');
	const message = result.error?.message ?? '';
	expect(message.startsWith(`Invalid "${field}": `)).toBe(true);
	expect(message.endsWith(' (item 0)')).toBe(true);
	if (typeof problem === 'string') expect(message).toContain(problem);
	else expect(message).toMatch(problem);
	expect(result.items).toEqual([]);
	expect(fixture.apiRequests()).toEqual([]);
}

export const CARD_HOLDER = {
	customerEmail: 'card.holder@example.com',
	firstName: 'Ada',
	lastName: 'Okafor',
};

/** A registered card user and an issued, active card (set up through the API, not the node). */
export async function issueCard(fixture: Fixture, amount = 50): Promise<{ cardId: string; reference: string }> {
	await callApi(fixture, 'POST', '/api/v1/virtualcards/registercarduser', {
		...CARD_HOLDER,
		country: 'US',
		idType: 'PASSPORT',
		idNumber: 'P1234567',
	});
	const card = await callApi(fixture, 'POST', '/api/v1/virtualcards/create', {
		customerEmail: CARD_HOLDER.customerEmail,
		amount,
		reference: 'setup-card',
	});
	await fixture.sandbox.controls.completeCardCreation(card.id as string);
	fixture.sandbox.clearRequests();
	return { cardId: card.id as string, reference: card.reference as string };
}
