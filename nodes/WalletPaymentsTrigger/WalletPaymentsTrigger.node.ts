import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { eventKey } from '../shared/ledger';
import { acknowledge, refuse, reportAnswer, type WebhookRequest } from './answers';
import {
	admissionScope,
	admitEvent,
	dedupeWindow,
	DEFAULT_DEDUPE_WINDOW,
	unhandledEvents,
} from './dedupe';
import { ALL_EVENTS, eventSelection, isSelected, WALLET_EVENTS } from './events';
import {
	DEFAULT_SIGNATURE_HEADER,
	signatureAlgorithm,
	signatureHeaderName,
	verifySignature,
} from './signature';
import { answerFromStep, RESPONSE_MODE } from './startedAnswer';
import { CREDENTIAL_TYPE, readCredential } from '../shared/credential';

const MISSING_SECRET =
	'Add a Webhook Signing Secret to the credential or turn off Verify Signature';

/** Headers that can carry credentials (e.g. added by a proxy): never copied into output. */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'x-api-key'];

async function signingSecret(context: IHookFunctions | IWebhookFunctions): Promise<string> {
	const credentials = await readCredential(context);
	const secret = credentials.webhookSecret;
	return typeof secret === 'string' ? secret : '';
}

/**
 * Refuses to activate when the signature check is on and the credential has no signing
 * secret: the trigger would otherwise answer every event with an error (fail closed).
 */
async function assertReadyToVerify(context: IHookFunctions): Promise<void> {
	if (context.getNodeParameter('verifySignature', true) === false) return;
	if ((await signingSecret(context)) !== '') return;
	throw new NodeOperationError(context.getNode(), MISSING_SECRET, {
		description:
			'Verify Signature is on, so every event must be checked against the secret the service signs with. Without one, no event could be trusted.',
	});
}

function isObject(value: unknown): value is IDataObject {
	return (
		typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value)
	);
}

export class WalletPaymentsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Wallet Payments Trigger',
		name: 'walletPaymentsTrigger',
		icon: {
			light: 'file:../../icons/wallet-payments.svg',
			dark: 'file:../../icons/wallet-payments.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{$parameter["events"].includes("*") ? "All events" : $parameter["events"].join(", ")}}',
		description:
			'Starts the workflow when the wallet payments service sends a signed event (payouts, beneficiaries, virtual cards, deposits)',
		defaults: { name: 'Wallet Payments Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				// The trigger's step answers, once its run started and its record held (startedAnswer.ts).
				responseMode: RESPONSE_MODE,
				path: 'webhook',
			},
		],
		properties: [
			{
				displayName:
					'The service has no API to register webhooks. Copy this node’s Production URL (above) into the service’s dashboard, or into the Callback URL field of Payout → Initiate (Legacy) or Beneficiary → Create, then publish the workflow.',
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: [ALL_EVENTS],
				description:
					'The events that start the workflow. Other events are answered 200 and start nothing.',
				options: [
					{
						name: 'All Events',
						value: ALL_EVENTS,
						description: 'Every event, including names not in this list',
					},
					...WALLET_EVENTS,
				],
			},
			{
				displayName: 'Custom Event Names',
				name: 'customEvents',
				type: 'string',
				default: '',
				placeholder: 'virtualcard.card.terminated, payout.transfer.reversed',
				description:
					'Comma-separated event names the list above lacks, exactly as the service sends them in the body’s "event" field',
			},
			{
				displayName: 'Verify Signature',
				name: 'verifySignature',
				type: 'boolean',
				default: true,
				description:
					'Whether to accept only events signed with the credential’s Webhook Signing Secret. Turning this off is unsafe: anyone who learns the URL can then start the workflow with forged payment events (fake paid deposits or settled payouts).',
			},
			{
				displayName: 'Signature Header',
				name: 'signatureHeader',
				type: 'string',
				default: DEFAULT_SIGNATURE_HEADER,
				description: 'The request header that carries the hex HMAC signature of the body',
				displayOptions: { show: { verifySignature: [true] } },
			},
			{
				displayName: 'Signature Algorithm',
				name: 'signatureAlgorithm',
				type: 'options',
				default: 'sha512',
				description: 'The HMAC hash the service signs with',
				options: [
					{ name: 'HMAC-SHA256', value: 'sha256' },
					{ name: 'HMAC-SHA512', value: 'sha512' },
				],
				displayOptions: { show: { verifySignature: [true] } },
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'De-Duplication Window',
						name: 'dedupeWindow',
						type: 'number',
						default: DEFAULT_DEDUPE_WINDOW,
						typeOptions: { minValue: 0 },
						description:
							'How many recent events (name, data.ID and data.status) to remember. A repeat is answered 200 and starts nothing; after n8n restarts, a repeat starts a run that stops at this node (n8n’s database remembers it). 0 turns de-duplication off.',
					},
					{
						displayName: 'Include Headers',
						name: 'includeHeaders',
						type: 'boolean',
						default: false,
						description:
							'Whether to add the request headers to the output item (the signature, authorization and cookie headers are left out)',
					},
				],
			},
		],
	};

	webhookMethods = {
		default: {
			// The service has no webhook registration API: the URL is pasted into its dashboard
			// or sent as a request's callbackUrl. So nothing is registered, looked up or deleted
			// here, and publishing or unpublishing any number of times creates nothing. These
			// methods only refuse activation when the signature check cannot work (fail closed).
			async checkExists(this: IHookFunctions): Promise<boolean> {
				await assertReadyToVerify(this);
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				await assertReadyToVerify(this);
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	/**
	 * The trigger's step in the run its event started: lets through only events this workflow
	 * has not handled before, per n8n's database, so that a repeat arriving after a restart (or
	 * at another webhook process) ends its run here. Runs from the editor's test URL are not held
	 * back.
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		if (this.getMode() === 'manual') {
			answerFromStep(this);
			return [items];
		}
		const options = this.getNodeParameter('options', 0, {}) as IDataObject;
		// Answered once the event's first record is written: a run that fails before is answered
		// with an error, so the provider delivers the event again (startedAnswer.ts); after it, the
		// step settles which run passes the event on, and fails naming it if it cannot.
		const passed = await unhandledEvents(this, items, dedupeWindow(options.dedupeWindow), () =>
			answerFromStep(this),
		);
		return [passed];
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const request = this.getRequestObject() as unknown as WebhookRequest;
		const headers = this.getHeaderData();
		const headerName = signatureHeaderName(
			this.getNodeParameter('signatureHeader', DEFAULT_SIGNATURE_HEADER),
		);

		if (this.getNodeParameter('verifySignature', true) !== false) {
			const secret = await signingSecret(this);
			// Fail closed: without a secret nothing can be verified, so nothing runs.
			if (secret === '') return refuse(this, 500, `${MISSING_SECRET}.`);
			const check = verifySignature({
				header: headers[headerName],
				headerName,
				rawBody: request.rawBody,
				parsedBody: request.body,
				secret,
				algorithm: signatureAlgorithm(this.getNodeParameter('signatureAlgorithm', 'sha512')),
			});
			if (!check.valid) return refuse(this, 401, `Signature check failed: ${check.reason}`);
		}

		const body = request.body;
		if (
			!isObject(body) ||
			typeof body.event !== 'string' ||
			body.event.trim() === '' ||
			!isObject(body.data)
		) {
			return refuse(
				this,
				400,
				'The body is not a wallet payments event: expected JSON { "event": string, "data": object }',
			);
		}
		const event = body.event;
		const data = body.data;

		const selection = eventSelection(
			this.getNodeParameter('events', [ALL_EVENTS]),
			this.getNodeParameter('customEvents', ''),
		);
		if (!isSelected(selection, event)) return acknowledge('event not selected');

		const options = this.getNodeParameter('options', {}) as IDataObject;
		const key = eventKey(event, data);
		// Test deliveries (Listen for test event) are told apart from production ones.
		const scope = admissionScope(this);
		if (key !== undefined) {
			const report = await admitEvent(scope, key, dedupeWindow(options.dedupeWindow));
			if (report === false) return acknowledge('duplicate delivery');
			reportAnswer(this, report);
		}

		const json: IDataObject = { event, data, eventKey: key ?? null };
		if (options.includeHeaders === true) {
			const copy: IDataObject = {};
			const withheld = new Set([headerName, ...CREDENTIAL_HEADERS]);
			for (const [name, value] of Object.entries(headers)) {
				if (!withheld.has(name.toLowerCase()) && value !== undefined) copy[name] = value;
			}
			json.headers = copy;
		}
		return { workflowData: [[{ json }]] };
	}
}
