/** Set-up for the read-batching e2e, through the sandbox API. */
import type { Sandbox } from '../../../tooling/sandbox';

/** A v2 payout to a fresh saved beneficiary, made through the sandbox API; returns its ID. */
export async function initiatePayoutViaApi(sandbox: Sandbox, amount: number): Promise<string> {
	const call = async (path: string, body: unknown) => {
		const response = await fetch(`${sandbox.url}${path}`, {
			method: 'POST',
			headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		const parsed = (await response.json()) as { data: { id: string } };
		if (response.status !== 200) throw new Error(`POST ${path} → ${response.status}: ${JSON.stringify(parsed)}`);
		return parsed.data.id;
	};
	const beneficiaryId = await call('/api/v2/beneficiaries', {
		country: 'KE',
		currency: 'KES',
		customerEmail: 'payee@example.com',
		destination: { type: 'MOBILEMONEY', network: 'MPESA', accountName: 'A Payee', accountNumber: '254712345678' },
	});
	return await call('/api/v2/wallets/payout/initialize', {
		amount,
		sourceWalletCurrency: 'USD',
		customerEmail: 'payee@example.com',
		description: 'batching e2e',
		beneficiaryId,
	});
}
