/** The payee workflows and counts the queue-mode and e2e files share: a webhook of payees, each paid once. */
import type { Sandbox } from '../../../tooling/sandbox';
import { sandboxApi } from '../../e2e/support/e2e';
import { node, walletNode, type WalletNodeOptions, type WorkflowNode } from '../../../tooling/n8n/workflow';

/** A production Webhook node (answers at once, the run is queued). */
export function webhookNode(webhookPath: string): WorkflowNode {
	return node('Webhook', 'n8n-nodes-base.webhook', 2, { httpMethod: 'POST', path: webhookPath, options: {} }, { webhookId: webhookPath });
}

/** A Code node that turns the webhook's body `{ payees: [...] }` into one item per payee. */
export function payeeRows(): WorkflowNode {
	return node('Payee Rows', 'n8n-nodes-base.code', 2, {
		jsCode: 'return $input.first().json.body.payees.map((payee) => ({ json: payee }));',
	});
}

/** The Pay node's fields for the payee in `row` (an expression: the item, or a webhook's body). */
function payeeFields(row: string): Record<string, unknown> {
	return {
		sourceWalletCurrency: 'USD',
		amount: `={{ ${row}.amount }}`,
		customerEmail: `={{ ${row}.email }}`,
		description: `={{ ${row}.invoiceId }}`,
		beneficiaryMode: 'id',
		beneficiaryId: { __rl: true, mode: 'id', value: `={{ ${row}.beneficiaryId }}` },
	};
}

/** Payout → Initiate for the payee in `row`, at the node's defaults (the key the node derives). */
export function payeeAtDefaults(row = '$json'): WorkflowNode {
	return walletNode('Pay', 'payout', 'initiate', payeeFields(row));
}

/**
 * Pay: Payout → Initiate of one payee row (Payee Rows' item) to its saved beneficiary, the
 * amount in minor units, keyed by the row's invoice; `duplicateProtection` adds to that key.
 */
export function payeePayout(duplicateProtection: Record<string, unknown> = {}, options: WalletNodeOptions = {}): WorkflowNode {
	return walletNode(
		'Pay',
		'payout',
		'initiate',
		{ ...payeeFields('$json'), duplicateProtection: { idempotencyKey: '={{ $json.invoiceId }}', ...duplicateProtection } },
		options,
	);
}

/** A payee row as the queue tests post it: an invoice, its saved beneficiary, an amount. */
export interface Payee {
	invoiceId: string;
	beneficiaryId: string;
	amount: number;
	email: string;
}

/**
 * Makes payees in the sandbox (a saved beneficiary each, 25 created at a time), numbered on from
 * the last call: `INV-0001`, `INV-0002`, …
 */
export function payeeMaker(sandbox: Sandbox): (count: number) => Promise<Payee[]> {
	let counter = 0;
	return async (count) => {
		const made: Payee[] = [];
		for (let start = 0; start < count; start += 25) {
			const batch = await Promise.all(
				Array.from({ length: Math.min(25, count - start) }, async () => {
					const n = ++counter;
					const email = `payee${n}@example.com`;
					const beneficiary = await sandboxApi<{ id: string }>(sandbox, 'POST', '/api/v2/beneficiaries', {
						country: 'KE',
						currency: 'KES',
						customerEmail: email,
						destination: { type: 'MOBILEMONEY', network: 'MPESA', accountName: `Payee ${n}`, accountNumber: '254712345678' },
					});
					return { invoiceId: `INV-${String(n).padStart(4, '0')}`, beneficiaryId: beneficiary.id, amount: 1000 + n, email };
				}),
			);
			made.push(...batch);
		}
		return made;
	};
}

/** Payouts the sandbox made, per beneficiary id. */
export function payoutsPerBeneficiary(sandbox: Sandbox): Map<string, number> {
	const counts = new Map<string, number>();
	for (const tx of sandbox.state.transactions) {
		if (tx.kind !== 'payout' || !tx.beneficiaryId) continue;
		counts.set(tx.beneficiaryId, (counts.get(tx.beneficiaryId) ?? 0) + 1);
	}
	return counts;
}

/** How many of `beneficiaryIds` were paid 0, 1, 2… times: { "1": 500 } is "each once". */
export function paidTimes(sandbox: Sandbox, beneficiaryIds: string[]): Record<string, number> {
	const counts = payoutsPerBeneficiary(sandbox);
	const histogram: Record<string, number> = {};
	for (const id of beneficiaryIds) {
		const n = String(counts.get(id) ?? 0);
		histogram[n] = (histogram[n] ?? 0) + 1;
	}
	return histogram;
}
