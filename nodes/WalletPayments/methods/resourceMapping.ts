import type {
	ILoadOptionsFunctions,
	ResourceMapperField,
	ResourceMapperFields,
} from 'n8n-workflow';

import { countryRequirements, fieldLabel, literalCountryCode } from '../input/destination';

/**
 * The destination form: the chosen type's field descriptors from the country requirement.
 * `required` marks mandatory fields, an `enum` becomes a dropdown, and `const` fields (such as
 * `type`) are left out of the form because the node fills them in. `pattern` is checked when
 * the node runs, before the request that creates or pays.
 */
export async function getDestinationFields(
	this: ILoadOptionsFunctions,
): Promise<ResourceMapperFields> {
	const code = literalCountryCode(this.getCurrentNodeParameter('country'));
	if (!code) {
		return {
			fields: [],
			emptyFieldsNotice:
				'Enter the country as a two-letter code (not an expression) to load its form, or use Raw JSON',
		};
	}
	const type = this.getCurrentNodeParameter('destinationType');
	if (typeof type !== 'string' || type === '' || type === 'json' || type.startsWith('=')) {
		return { fields: [], emptyFieldsNotice: 'Choose a destination type first' };
	}
	const requirements = await countryRequirements(this, code);
	const descriptors = requirements.destination[type];
	if (!descriptors) {
		const offered = Object.keys(requirements.destination).join(', ');
		return {
			fields: [],
			emptyFieldsNotice: `${requirements.name} (${requirements.code}) does not offer ${type}; choose one of: ${offered}`,
		};
	}
	const fields: ResourceMapperField[] = descriptors
		.filter((descriptor) => descriptor.const === undefined)
		.map((descriptor) => ({
			id: descriptor.name,
			displayName: fieldLabel(descriptor.name),
			required: descriptor.required === true,
			defaultMatch: false,
			canBeUsedToMatch: false,
			display: true,
			type: descriptor.enum ? 'options' : 'string',
			...(descriptor.enum
				? { options: descriptor.enum.map((value) => ({ name: value, value })) }
				: {}),
		}));
	return { fields };
}
