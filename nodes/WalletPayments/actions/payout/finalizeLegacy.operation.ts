import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { forOperation } from '../../descriptions/displayOptions';
import { duplicateProtectionField } from '../../controls/idempotency';
import { sendBatchingField } from '../../input/batching';
import { waitForFinalStatusProperties, waitSettingsIfAsked } from '../../engine/settlement';
import { requiredText } from '../../input/validation';
import type { GuardedOperation, GuardedRequest } from '../../engine/exactlyOnce/prepare';

const properties: INodeProperties[] = [
	{
		displayName: 'Transaction ID',
		name: 'transactionId',
		type: 'string',
		required: true,
		default: '',
		description:
			'The ID returned by Payout → Initiate (Legacy). Finalize within about 4 minutes of initiating. The answer gives amount, fees and spotPrice as text, as the service sends them.',
	},
	duplicateProtectionField,
	sendBatchingField,
	...waitForFinalStatusProperties(),
];

export const description = forOperation('payout', 'finalizeLegacy', properties);

export async function prepare(this: IExecuteFunctions, itemIndex: number): Promise<GuardedRequest> {
	const transactionId = requiredText(
		this.getNodeParameter('transactionId', itemIndex),
		'Transaction ID',
		100,
	);
	return {
		endpoint: '/api/v1/wallets/payout/finalize',
		body: { transactionId },
		doneOnceFor: transactionId,
		waitForFinal: waitSettingsIfAsked(this, itemIndex),
	};
}

export const operation = { kind: 'guarded', description, prepare } satisfies GuardedOperation;
