/** What n8n and the sandbox start with for the pictures: the credential, settlement, one extra workflow. */
import { CREDENTIAL_TYPE, WALLET_NODE_TYPE, type WorkflowJson } from '../../tooling/n8n/n8n';
import { mobileMoneyForm } from '../../tooling/n8n/workflow';

export const CREDENTIAL = { id: 'WalletDemoCred01', name: 'Wallet Payments (sandbox)' };
export const FORM_WORKFLOW_ID = 'WalletShotForm01';
/** The payout run with settlement (examples/payout-run-with-settlement.json). */
export const SETTLEMENT_WORKFLOW_ID = 'WalletExSettled1';
/** As in the demo: payouts settle by themselves; the settlement example's closed account fails. */
export const SETTLEMENT = {
	delayMs: 3000,
	rules: [{ accountNumber: '254799000005', outcome: 'failed' as const, reason: 'Mobile money account closed' }],
};
export const FORM_NODE_ID = '5f0c3a1e-9b7d-4e2a-8c61-0d4b2e7f9a13';

/** A workflow with Payout → Initiate to an inline beneficiary: the country-driven form. */
export function formWorkflow(): WorkflowJson {
	const credentials = { [CREDENTIAL_TYPE]: CREDENTIAL };
	return {
		id: FORM_WORKFLOW_ID,
		name: 'Payout form (screenshot)',
		nodes: [
			{
				id: '1c9e6b2a-4d3f-4a8e-9b1c-7e2d5f0a6c31',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: FORM_NODE_ID,
				name: 'Pay Wanjiru',
				type: WALLET_NODE_TYPE,
				typeVersion: 1,
				position: [260, 0],
				parameters: {
					resource: 'payout',
					operation: 'initiate',
					sourceWalletCurrency: 'KES',
					amountUnit: 'major',
					amount: 1500,
					customerEmail: 'wanjiru.kamau@example.com',
					description: 'November field visits',
					beneficiaryMode: 'inline',
					country: 'KE',
					currency: 'KES',
					destinationType: 'MOBILEMONEY',
					destinationFields: mobileMoneyForm({ network: 'MPESA', accountName: 'Wanjiru Kamau', accountNumber: '254712345001' }),
				},
				credentials,
			},
		],
		connections: { Start: { main: [[{ node: 'Pay Wanjiru', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		active: false,
	};
}
