import { ExecutionLifecycleHooks, LoadOptionsContext } from 'n8n-core';
import type {
	INode,
	INodeListSearchResult,
	INodeParameters,
	INodePropertyOptions,
	INodeType,
	ResourceMapperFields,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { additionalDataFor, nodeTypes, WALLET_NODE_TYPE, type TestCredentials } from './runNode';

/**
 * Calls the node's `methods` (listSearch, loadOptions, resourceMapping) the way n8n's
 * DynamicNodeParametersService does when the editor asks for them: a one-node workflow holding
 * the node's current parameters, and n8n-core's real LoadOptionsContext, whose request helpers
 * go over real HTTP with the credential applied by the credentials helper.
 */
export interface DynamicParameters {
	/** The node's parameters as the editor holds them when it asks. */
	parameters: INodeParameters;
	credentials: TestCredentials;
	/** The parameter being filled in, e.g. "parameters.customerId". */
	path?: string;
}

function contextFor({ parameters, credentials, path = 'parameters.value' }: DynamicParameters): LoadOptionsContext {
	const node: INode = {
		id: 'uuid-1234',
		name: 'Temp-Node',
		type: WALLET_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { walletPaymentsApi: { id: '1', name: 'Wallet Payments account' } },
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const hooks = new ExecutionLifecycleHooks('internal', 'load-options', { id: 'none', name: 'none', nodes: [], connections: {} } as never);
	const additionalData = additionalDataFor(credentials, hooks, 'load-options');
	additionalData.currentNodeParameters = parameters;
	return new LoadOptionsContext(workflow, workflow.nodes['Temp-Node'], additionalData, path);
}

function methods(): NonNullable<INodeType['methods']> {
	const nodeType = nodeTypes.getByNameAndVersion(WALLET_NODE_TYPE) as INodeType;
	if (!nodeType.methods) throw new Error('The node has no methods');
	return nodeType.methods;
}

export async function listSearch(
	method: string,
	options: DynamicParameters & { filter?: string; paginationToken?: string },
	// n8n 1.x types the token `unknown`; this node's is always a string.
): Promise<INodeListSearchResult & { paginationToken?: string }> {
	const fn = methods().listSearch?.[method];
	if (!fn) throw new Error(`No listSearch method ${method}`);
	return (await fn.call(contextFor(options), options.filter, options.paginationToken)) as INodeListSearchResult & {
		paginationToken?: string;
	};
}

export async function loadOptions(method: string, options: DynamicParameters): Promise<INodePropertyOptions[]> {
	const fn = methods().loadOptions?.[method];
	if (!fn) throw new Error(`No loadOptions method ${method}`);
	return await fn.call(contextFor(options));
}

export async function resourceMapping(method: string, options: DynamicParameters): Promise<ResourceMapperFields> {
	const fn = methods().resourceMapping?.[method];
	if (!fn) throw new Error(`No resourceMapping method ${method}`);
	return await fn.call(contextFor(options));
}
