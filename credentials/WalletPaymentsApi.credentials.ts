import type {
	IAuthenticate,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

export class WalletPaymentsApi implements ICredentialType {
	name = 'walletPaymentsApi';

	displayName = 'Wallet Payments API';

	icon: Icon = {
		light: 'file:../icons/wallet-payments.svg',
		dark: 'file:../icons/wallet-payments.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-wallet-payments/n8n-nodes-wallet-payments#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The secret key of your merchant account. It is sent as a Bearer token.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com',
			description:
				'The address of the payments API, without a path (a trailing slash is fine). Use the provider’s sandbox address while testing.',
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 60,
			description:
				'How long to wait for the service to answer one request before giving up. A payout that times out may still have been carried out: the error says so.',
		},
		{
			displayName: 'Already Submitted Status Codes',
			name: 'alreadySubmittedCodes',
			type: 'string',
			default: '409',
			placeholder: '409',
			description:
				'HTTP status codes (comma-separated) with which the service refuses a reference it has already seen. Such a refusal means an earlier run already did it: the node outputs it as already submitted instead of failing.',
		},
		{
			displayName: 'Already Submitted Message Pattern',
			name: 'alreadySubmittedPattern',
			type: 'string',
			default: 'already|duplicate',
			description:
				'A regular expression (case-insensitive) the service’s message must also match for such a refusal to count as already submitted. Leave empty to go by the status code alone.',
		},
		{
			displayName: 'Webhook Signing Secret',
			name: 'webhookSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'The secret the service signs its callback events with. Only the Wallet Payments Trigger uses it. Some providers sign with the API key itself: paste it here in that case.',
		},
		{
			displayName:
				'Payment limits bind every workflow and AI agent tool that uses this credential. Leave a field empty for no limit.',
			name: 'limitsNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Maximum per Payment',
			name: 'maxPerPayment',
			type: 'string',
			default: '',
			placeholder: 'USD 5000, EUR 4500.50',
			description:
				'Per currency, in major units (USD 5000 is 5,000.00 US dollars). A payout, card top-up or withdrawal, or swap quote over it is refused, and its whole run sends nothing. A currency not listed has no maximum.',
		},
		{
			displayName: 'Maximum per Run',
			name: 'maxPerRun',
			type: 'string',
			default: '',
			placeholder: 'USD 50000',
			description:
				'Per currency, in major units: the most that one run of one node may move, all its items together. A run over it sends nothing. Not a daily limit: n8n keeps no total across runs or workflows.',
		},
		{
			displayName: 'Allowed Currencies',
			name: 'allowedCurrencies',
			type: 'string',
			default: '',
			placeholder: 'USD, EUR',
			description:
				'Three-letter codes, comma-separated. Money in any other currency (for a swap: from or into) is refused, and its whole run sends nothing. Empty: every currency.',
		},
		{
			displayName: 'Saved Beneficiaries Only',
			name: 'savedBeneficiariesOnly',
			type: 'boolean',
			default: false,
			description:
				'Whether payouts may go only to beneficiaries saved at the service (Beneficiary → Create), never to a destination given in the workflow: a run with one sends nothing',
		},
		{
			displayName: 'n8n Runs As',
			name: 'processes',
			type: 'options',
			options: [
				{
					name: 'Several Processes or Not Sure',
					value: 'several',
					description:
						'Queue mode (workers, webhook processors, several mains), or not known: safe everywhere',
				},
				{
					name: 'One Process Only',
					value: 'one',
					description:
						'One n8n process and nothing else running these workflows: records skip the claim wait',
				},
			],
			default: 'several',
			description:
				'Every record that keeps a payment or an event from being done twice is claimed across n8n processes unless n8n is one process: it waits Claim Wait and checks that it held, twice (about 8 s per run, rows claimed up to 1,000 at a time ahead of sending). Choose One Process Only to skip that wait, and only if no other n8n process (worker, webhook processor, main) ever runs these workflows: two runs in two processes at once could then pay twice.',
		},
		{
			displayName: 'Claim Wait (Ms)',
			name: 'claimWaitMs',
			type: 'number',
			typeOptions: { minValue: 100 },
			default: 4000,
			displayOptions: { show: { processes: ['several'] } },
			description:
				'How long a claim waits before each of its two checks that it held: at least the longest time any n8n process takes between reading and writing its de-duplication record. Longer is safer; a store call of the claim that takes all of it or more makes its items fail unsent. A Retry of a run whose worker died waits 44 times this before it sends the rows that run had claimed and not sent.',
		},
	];

	// A function rather than the declarative `={{$credentials.apiKey}}` form: n8n applies it to
	// every request, and the declarative form costs an expression evaluation each time.
	authenticate: IAuthenticate = async (credentials, requestOptions) => ({
		...requestOptions,
		headers: {
			...requestOptions.headers,
			Authorization: `Bearer ${String(credentials.apiKey ?? '')}`,
		},
	});

	// A cheap, read-only call: one customer.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl}}',
			url: '/api/v2/customers',
			method: 'GET',
			qs: { limit: 1 },
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'The service refused the API Key (HTTP 401). Check the API Key.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The API Key is not allowed to read customers (HTTP 403). Check the key and its permissions.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'Nothing answers at this Base URL (HTTP 404). Check the Base URL: the address of the API, without a path.',
				},
			},
		],
	};
}
