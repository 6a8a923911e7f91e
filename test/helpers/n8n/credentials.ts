import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IRequestOptionsSimplified,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper } from 'n8n-workflow';

import { WalletPaymentsApi } from '../../../credentials/WalletPaymentsApi.credentials';

export const credentialTypes: Record<string, ICredentialType> = {
	walletPaymentsApi: new WalletPaymentsApi(),
};

type Resolver = (value: string, credentials: ICredentialDataDecryptedObject, workflow?: Workflow, node?: INode) => unknown;

/**
 * Test stand-in for n8n's CredentialsHelper (which lives in n8n's CLI package): hands out the
 * credential data and applies the credential type's `authenticate` the way n8n does, resolving
 * `={{$credentials.x}}` expressions with n8n-workflow's own expression engine.
 */
export class TestCredentialsHelper extends ICredentialsHelper {
	constructor(private readonly data: Record<string, ICredentialDataDecryptedObject>) {
		super();
	}

	private resolve: Resolver = (value, credentials, workflow, node) => {
		if (!value.startsWith('=') || !workflow || !node) return value;
		return workflow.expression.getParameterValue(
			value,
			null,
			0,
			0,
			node.name,
			[],
			'internal',
			{ $credentials: credentials },
			undefined,
			false,
			credentials,
		);
	};

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const type = credentialTypes[typeName];
		const options = requestOptions as IHttpRequestOptions;
		if (!type?.authenticate) return options;
		if (typeof type.authenticate === 'function') return await type.authenticate(credentials, options);
		const { headers = {}, qs = {} } = type.authenticate.properties as {
			headers?: Record<string, string>;
			qs?: Record<string, string>;
		};
		options.headers = { ...options.headers };
		for (const [key, value] of Object.entries(headers)) {
			options.headers[key] = this.resolve(value, credentials, workflow, node) as string;
		}
		if (Object.keys(qs).length > 0) {
			options.qs = { ...options.qs };
			for (const [key, value] of Object.entries(qs)) {
				(options.qs as Record<string, unknown>)[key] = this.resolve(value, credentials, workflow, node);
			}
		}
		return options;
	}

	async preAuthentication() {
		return undefined;
	}

	async runPreAuthentication() {
		return undefined;
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async getDecrypted(
		_additionalData: unknown,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.data[type];
		if (!data) throw new Error(`No test credentials of type ${type}`);
		return { ...data };
	}

	async getCredentials(): Promise<never> {
		throw new Error('getCredentials is not used by these tests');
	}

	async updateCredentials() {}

	async updateCredentialsOauthTokenData() {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return credentialTypes[type]?.properties ?? [];
	}
}
