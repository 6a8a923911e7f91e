import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { WalletPaymentsTrigger } from '../../../nodes/WalletPaymentsTrigger/WalletPaymentsTrigger.node';
import { signBody } from '../../../tooling/sandbox/webhooks';
import type { TestCredentials } from '../n8n/runNode';
import { startTriggerHarness, type Answer, type TriggerHarness } from './triggerHarness';

export const TRIGGER_TYPE = 'n8n-nodes-wallet-payments.walletPaymentsTrigger';
export const SECRET = 'whsec_trigger_test_secret_5f2c';
export const API_KEY = 'sk_test_trigger_api_key_91ad';
export const HEADER = 'x-wallet-signature';

export const CREDENTIALS: TestCredentials = { apiKey: API_KEY, baseUrl: 'http://127.0.0.1:9', webhookSecret: SECRET };

/** The provider's signature of a body (the sandbox's signBody), with this file's secret by default. */
export const sign = (body: string | Buffer, secret = SECRET, algorithm: 'sha256' | 'sha512' = 'sha512'): string =>
	signBody(body, secret, algorithm);

/** A payout event as the provider sends it. */
export function payoutEvent(overrides: { event?: string; id?: string; status?: string } = {}): IDataObject {
	return {
		event: overrides.event ?? 'payout.transfer.success',
		data: {
			id: overrides.id ?? 'tx_001',
			fees: '0.50',
			type: 'debit',
			amount: '25.00',
			action: 'payout',
			status: overrides.status ?? 'success',
			channel: 'payout',
			reference: 'PAY-001',
			companyId: 'company_1',
			callbackUrl: null,
		},
	};
}

/** Open harnesses, closed after each test by closeHarnesses(). */
const open: TriggerHarness[] = [];

export async function startTrigger(
	parameters: INodeParameters = {},
	credentials: TestCredentials | null = CREDENTIALS,
): Promise<TriggerHarness> {
	const harness = await startTriggerHarness({
		nodeType: new WalletPaymentsTrigger(),
		typeName: TRIGGER_TYPE,
		parameters,
		credentials,
	});
	open.push(harness);
	return harness;
}

export async function closeHarnesses(): Promise<void> {
	const closing = open.splice(0);
	await Promise.all(closing.map(async (harness) => await harness.close()));
}

/** POSTs the body (raw bytes, or JSON.stringify of an object), signed over exactly those bytes. */
export async function postSigned(
	harness: TriggerHarness,
	body: string | IDataObject,
	options: { secret?: string; algorithm?: 'sha256' | 'sha512'; header?: string } = {},
): Promise<Answer> {
	const raw = typeof body === 'string' ? body : JSON.stringify(body);
	return await harness.post(raw, { [options.header ?? HEADER]: sign(raw, options.secret, options.algorithm) });
}

const SECRETS = [SECRET, API_KEY, 'whsec_sandbox', 'sk_test_sandbox'];

/**
 * No secret (signing secret, API key) and no HMAC digest appears in any answer, output item or
 * error the node produced.
 */
export function expectNothingSecret(harness: TriggerHarness, options: { digestsAllowedInRuns?: boolean } = {}): void {
	const texts: string[] = [
		...harness.answers.map((answer) => answer.body),
		...harness.errors.map((error) => `${error.message} ${JSON.stringify(error)} ${(error as { description?: string }).description ?? ''}`),
	];
	const runs = JSON.stringify(harness.runs);
	for (const secret of SECRETS) {
		for (const text of [...texts, runs]) expect(text).not.toContain(secret);
	}
	for (const text of texts) expect(text).not.toMatch(/[0-9a-f]{64}/i);
	if (!options.digestsAllowedInRuns) expect(runs).not.toMatch(/[0-9a-f]{64}/i);
}

/**
 * The trigger's output item for an event: the event, its data, and its key (name, data.id,
 * data.status), or null when the data has no id.
 */
export function outputFor(event: IDataObject): IDataObject {
	const data = event.data as IDataObject;
	const hasId = (typeof data.id === 'string' && data.id !== '') || typeof data.id === 'number';
	const status = typeof data.status === 'string' || typeof data.status === 'number' ? String(data.status) : null;
	return { ...event, eventKey: hasId ? JSON.stringify([event.event, String(data.id), status]) : null };
}

/** The output items' JSON of every run, flattened. */
export function emitted(harness: TriggerHarness): IDataObject[] {
	return harness.runs.flatMap((run) => run.flatMap((items) => items.map((item) => item.json)));
}
