/** The one place that names the credential type and reads it; each reader parses its own fields. */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

export const CREDENTIAL_TYPE = 'walletPaymentsApi';

interface CredentialReader {
	getCredentials(type: string): Promise<ICredentialDataDecryptedObject>;
}

/** The Wallet Payments API credential of the node being run. */
export async function readCredential(
	context: CredentialReader,
): Promise<ICredentialDataDecryptedObject> {
	return await context.getCredentials(CREDENTIAL_TYPE);
}
