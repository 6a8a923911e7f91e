/**
 * Publish/unpublish (webhookMethods through n8n-core's HookContext), the fail-closed behaviour
 * without a signing secret, and the node's description.
 */
import { NodeOperationError } from 'n8n-workflow';

import { WalletPaymentsTrigger } from '../../../nodes/WalletPaymentsTrigger/WalletPaymentsTrigger.node';
import pkg from '../../../package.json';
import codex from '../../../nodes/WalletPaymentsTrigger/WalletPaymentsTrigger.node.json';
import { API_KEY, closeHarnesses, CREDENTIALS, expectNothingSecret, payoutEvent, postSigned, startTrigger } from '../../helpers/trigger/fixtures';

afterEach(async () => await closeHarnesses());

const MISSING_SECRET = 'Add a Webhook Signing Secret to the credential or turn off Verify Signature';

describe('publish and unpublish', () => {
	test('publishing any number of times registers nothing and never fails; unpublishing neither', async () => {
		const harness = await startTrigger();
		for (let i = 0; i < 3; i++) {
			// checkExists answers true (nothing to register), so n8n never calls create.
			expect(await harness.activate('activate')).toEqual({ calls: ['checkExists'], exists: true });
			expect(await harness.activate('update')).toEqual({ calls: ['checkExists'], exists: true });
			expect(await harness.deactivate()).toEqual({ calls: ['delete'] });
		}
		// No run, no answer, no state written.
		expect(harness.runs).toEqual([]);
		expect(harness.answers).toEqual([]);
		expect(harness.staticData()).toEqual({});
	});

	test('create and delete are idempotent no-ops when called directly', async () => {
		const node = new WalletPaymentsTrigger();
		const context = {
			getNodeParameter: (name: string, fallback: unknown) => (name === 'verifySignature' ? true : fallback),
			getCredentials: async () => ({ webhookSecret: 'whsec_x' }),
			getNode: () => ({ name: 'Wallet Payments Trigger' }),
		};
		for (let i = 0; i < 2; i++) {
			await expect(node.webhookMethods.default.create.call(context as never)).resolves.toBe(true);
			await expect(node.webhookMethods.default.delete.call(context as never)).resolves.toBe(true);
		}
	});

	test('Verify Signature off: publishes without a secret', async () => {
		const harness = await startTrigger({ verifySignature: false }, { ...CREDENTIALS, webhookSecret: '' });
		expect(await harness.activate()).toEqual({ calls: ['checkExists'], exists: true });
	});
});

describe('fail closed without a signing secret', () => {
	const noSecret = { apiKey: API_KEY, baseUrl: 'http://127.0.0.1:9' };

	test.each([
		['absent', noSecret],
		['empty', { ...noSecret, webhookSecret: '' }],
	])('publishing is refused with a clear message when the secret is %s', async (_case, credentials) => {
		const harness = await startTrigger({}, credentials);
		const error = await harness.activate().catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toBe(MISSING_SECRET);
		expect(JSON.stringify(error)).not.toContain(API_KEY);
		// Unpublishing still works.
		expect(await harness.deactivate()).toEqual({ calls: ['delete'] });
	});

	test('create refuses too, should n8n call it', async () => {
		const node = new WalletPaymentsTrigger();
		const context = {
			getNodeParameter: (_name: string, fallback: unknown) => fallback,
			getCredentials: async () => ({ apiKey: API_KEY, webhookSecret: '' }),
			getNode: () => ({ name: 'Wallet Payments Trigger', type: 'x', typeVersion: 1, parameters: {} }),
		};
		await expect(node.webhookMethods.default.create.call(context as never)).rejects.toThrow(MISSING_SECRET);
	});

	test('every request is answered 500 without a run, even a correctly signed one', async () => {
		const harness = await startTrigger({}, { ...noSecret, webhookSecret: '' });
		const signedWithEmpty = await postSigned(harness, payoutEvent(), { secret: '' });
		const unsigned = await harness.post(payoutEvent());
		for (const answer of [signedWithEmpty, unsigned]) {
			expect(answer.status).toBe(500);
			expect(answer.json).toEqual({ code: 500, message: `${MISSING_SECRET}.` });
		}
		expect(harness.runs).toEqual([]);
		expect(harness.errors).toEqual([]);
		expectNothingSecret(harness);
	});
});

describe('description', () => {
	const { description } = new WalletPaymentsTrigger();

	test('follows n8n trigger conventions', () => {
		expect(description).toMatchObject({
			displayName: 'Wallet Payments Trigger',
			name: 'walletPaymentsTrigger',
			group: ['trigger'],
			inputs: [],
			outputs: ['main'],
			credentials: [{ name: 'walletPaymentsApi', required: true }],
			webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'responseNode', path: 'webhook' }],
			icon: { light: 'file:../../icons/wallet-payments.svg', dark: 'file:../../icons/wallet-payments.dark.svg' },
		});
		expect(description.usableAsTool).toBeUndefined();
	});

	test('Verify Signature is on by default and its description says why turning it off is unsafe', () => {
		const verify = description.properties.find((p) => p.name === 'verifySignature')!;
		expect(verify.default).toBe(true);
		expect(verify.description).toMatch(/unsafe/);
		expect(verify.description).toMatch(/forged/);
	});

	test('tells users where to paste the Production URL', () => {
		const notice = description.properties.find((p) => p.type === 'notice')!;
		expect(notice.displayName).toMatch(/Production URL/);
		expect(notice.displayName).toMatch(/Callback URL/);
	});

	test('is registered in package.json and has a codex with categories', () => {
		expect(pkg.n8n.nodes).toContain('dist/nodes/WalletPaymentsTrigger/WalletPaymentsTrigger.node.js');
		expect(codex.node).toBe('n8n-nodes-wallet-payments.walletPaymentsTrigger');
		expect(codex.categories.length).toBeGreaterThan(0);
	});
});
