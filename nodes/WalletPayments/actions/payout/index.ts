import type { INodeProperties } from 'n8n-workflow';

import * as finalizeLegacy from './finalizeLegacy.operation';
import * as initiate from './initiate.operation';
import * as initiateLegacy from './initiateLegacy.operation';

export { finalizeLegacy, initiate, initiateLegacy };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['payout'] } },
		options: [
			{
				name: 'Finalize (Legacy)',
				value: 'finalizeLegacy',
				description: 'Confirm a legacy payout started with Initiate (Legacy). Moves money.',
				action: 'Finalize a legacy payout',
			},
			{
				name: 'Initiate',
				value: 'initiate',
				description: 'Send money from a wallet to a beneficiary (bank account or mobile money). Moves money.',
				action: 'Initiate a payout',
			},
			{
				name: 'Initiate (Legacy)',
				value: 'initiateLegacy',
				description: 'Start a two-step payout to an existing beneficiary; finalize it within about 4 minutes. Moves money once finalized.',
				action: 'Initiate a legacy payout',
			},
		],
		default: 'initiate',
	},
	...initiate.description,
	...initiateLegacy.description,
	...finalizeLegacy.description,
];
