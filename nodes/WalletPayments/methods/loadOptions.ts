import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import {
	countryRequirements,
	DESTINATION_FIELDS,
	fieldLabel,
	type FieldDescriptor,
	literalCountryCode,
	typeName,
} from '../input/destination';

const RAW_JSON: INodePropertyOptions = {
	name: 'Raw JSON',
	value: 'json',
	description: 'Give the whole destination object as JSON, e.g. from an expression',
};

/** "Mobile Network (MPESA), Account Name, Account Number": what the form will ask for. */
function describeFields(descriptors: FieldDescriptor[]): string {
	return descriptors
		.filter((descriptor) => descriptor.const === undefined)
		.map(
			(descriptor) =>
				`${fieldLabel(descriptor.name)}${descriptor.enum ? ` (${descriptor.enum.join(', ')})` : ''}`,
		)
		.join(', ');
}

/**
 * Destination Type: the destination types the country offers (from the service's country
 * requirement), then Raw JSON. Before a country is entered as a plain code, the contract's
 * three types are offered.
 */
export async function getDestinationTypes(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const code = literalCountryCode(this.getCurrentNodeParameter('country'));
	if (!code) {
		const types = Object.entries(DESTINATION_FIELDS).map(([type, names]) => ({
			name: typeName(type),
			value: type,
			description: `${names.map(fieldLabel).join(', ')}. Enter the country as a two-letter code to see what it offers.`,
		}));
		return [...types.sort((a, b) => a.name.localeCompare(b.name)), RAW_JSON];
	}
	const requirements = await countryRequirements(this, code);
	const types = Object.entries(requirements.destination).map(([type, descriptors]) => ({
		name: typeName(type),
		value: type,
		description: describeFields(descriptors),
	}));
	return [...types.sort((a, b) => a.name.localeCompare(b.name)), RAW_JSON];
}
