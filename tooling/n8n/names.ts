/** The names the harness and the tools share: the package, its node types, the credential, n8n's owner. */
export const PACKAGE_NAME = 'n8n-nodes-wallet-payments';
export const WALLET_NODE_TYPE = `${PACKAGE_NAME}.walletPayments`;
export const WALLET_TRIGGER_TYPE = `${PACKAGE_NAME}.walletPaymentsTrigger`;
/** The action node as an AI agent's tool: n8n makes this type from the node (usableAsTool). */
export const WALLET_TOOL_TYPE = `${PACKAGE_NAME}.walletPaymentsTool`;
export const CREDENTIAL_TYPE = 'walletPaymentsApi';
/** Fixed ids so workflows can refer to the imported credential. */
export const CREDENTIAL_ID = 'WalletE2eCred001';
export const CREDENTIAL_NAME = 'Wallet Payments (sandbox)';

export interface Owner {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

export const DEFAULT_OWNER: Owner = {
	email: 'owner@wallet-payments.test',
	password: 'Sandbox-Passw0rd!',
	firstName: 'Sandbox',
	lastName: 'Owner',
};

export interface WalletCredentialData {
	apiKey: string;
	baseUrl: string;
	webhookSecret?: string;
	/** The credential's "n8n Runs As" (left out: as a user creates it, claims) and Claim Wait (ms). */
	processes?: 'one' | 'several';
	/** The payment limits (nodes/WalletPayments/controls/paymentLimits.ts). */
	maxPerPayment?: string;
	maxPerRun?: string;
	allowedCurrencies?: string;
	savedBeneficiariesOnly?: boolean;
	claimWaitMs?: number;
}
