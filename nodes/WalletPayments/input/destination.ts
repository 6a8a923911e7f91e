import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import { apiRequest, type WalletContext } from '../transport/request';
import { countryCode, InvalidInput, jsonObject, optionalText, requiredText } from './validation';

/**
 * The payout destination: a Destination Type the country offers and a form built from that
 * type's descriptors (`GET /api/v1/wallets/payout/supported-countries/{country}`), raw JSON, or
 * a row's columns (actions/payout/rowPayee.ts). Two sources of rules, each checked in one place:
 * the fixed shapes of BANK, NUBAN and MOBILEMONEY (`checkContractShape`: every field of
 * `DESTINATION_FIELDS` required text), and the country's live descriptors (`checkDescriptors`:
 * required, const, enum, pattern; fetched once per country per node run; docs/sandbox-spec.md).
 */

/** The fixed destination shapes: the fields each type requires, every one a string. */
export const DESTINATION_FIELDS: Record<string, string[]> = {
	BANK: ['bankCode', 'bankName', 'accountName', 'accountNumber'],
	MOBILEMONEY: ['network', 'accountName', 'accountNumber'],
	NUBAN: ['bankCode', 'accountName', 'accountNumber'],
};

const LABELS: Record<string, string> = {
	accountName: 'Account Name',
	accountNumber: 'Account Number',
	bankCode: 'Bank Code',
	bankName: 'Bank Name',
	network: 'Mobile Network',
	type: 'Destination Type',
};

const TYPE_NAMES: Record<string, string> = {
	BANK: 'Bank Account',
	MOBILEMONEY: 'Mobile Money',
	NUBAN: 'NUBAN (Nigerian Bank Account)',
};

/** "accountNumber" → "Account Number"; names the contract does not show are spelled out. */
export function fieldLabel(name: string): string {
	return (
		LABELS[name] ??
		name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/^./, (first) => first.toUpperCase())
	);
}

/** "MOBILEMONEY" → "Mobile Money"; other types as the API names them. */
export function typeName(type: string): string {
	return TYPE_NAMES[type] ?? type;
}

/** One field of a destination type in a country's requirements: its name and its rules. */
export interface FieldDescriptor {
	name: string;
	type?: string;
	required?: boolean;
	const?: string;
	enum?: string[];
	pattern?: string;
}

export interface CountryRequirements {
	code: string;
	name: string;
	/** Keyed by destination type. */
	destination: Record<string, FieldDescriptor[]>;
}

function asRequirements(data: IDataObject, code: string): CountryRequirements {
	const destination = (data?.destination ?? {}) as Record<string, unknown>;
	const types: Record<string, FieldDescriptor[]> = {};
	for (const [type, descriptors] of Object.entries(destination)) {
		if (Array.isArray(descriptors)) {
			types[type] = descriptors.filter(
				(d): d is FieldDescriptor => typeof (d as FieldDescriptor)?.name === 'string',
			);
		}
	}
	return {
		code: typeof data?.code === 'string' ? data.code : code,
		name: typeof data?.name === 'string' ? data.name : code,
		destination: types,
	};
}

/** `GET /api/v1/wallets/payout/supported-countries/{country}`: the raw answer. */
export async function getCountryRequirements(
	this: WalletContext,
	code: string,
): Promise<IDataObject> {
	return await apiRequest.call(
		this,
		'GET',
		`/api/v1/wallets/payout/supported-countries/${encodeURIComponent(code)}`,
	);
}

// Requirements fetched during one node run, per country: asked for once, whatever the items.
const requirementsByRun = new WeakMap<object, Map<string, Promise<CountryRequirements>>>();

export function countryRequirements(
	context: WalletContext,
	code: string,
): Promise<CountryRequirements> {
	const byCountry =
		requirementsByRun.get(context) ?? new Map<string, Promise<CountryRequirements>>();
	requirementsByRun.set(context, byCountry);
	let requirements = byCountry.get(code);
	if (!requirements) {
		requirements = getCountryRequirements
			.call(context, code)
			.then((data) => asRequirements(data, code));
		byCountry.set(code, requirements);
		requirements.catch(() => byCountry.delete(code));
	}
	return requirements;
}

/** The editor's country when it is a plain two-letter code (an expression has no value yet). */
export function literalCountryCode(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	return /^[A-Za-z]{2}$/.test(text) ? text.toUpperCase() : undefined;
}

/** The descriptors of one destination type, or a clear error naming the types on offer. */
export function descriptorsFor(requirements: CountryRequirements, type: string): FieldDescriptor[] {
	const descriptors = requirements.destination[type];
	if (!descriptors) {
		const offered = Object.keys(requirements.destination);
		throw new InvalidInput(
			'Destination Type',
			`${requirements.name} (${requirements.code}) does not offer "${type}"; it offers ${offered.join(', ') || 'no destination types'}`,
			'Country → Get Payout Requirements lists what a country takes.',
		);
	}
	return descriptors;
}

/**
 * The destination fields: Destination Type (the country's types, loaded from the service),
 * the form for that type (n8n's resource mapper, its fields from the type's descriptors), and
 * raw JSON. `show` limits every field to the operation (and mode) that uses it.
 */
export function destinationProperties(show: IDisplayOptions['show']): INodeProperties[] {
	return [
		{
			displayName: 'Destination Type Name or ID',
			name: 'destinationType',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getDestinationTypes', loadOptionsDependsOn: ['country'] },
			required: true,
			default: '',
			description:
				'Which kind of account receives the money: the types the country offers (from the service), or Raw JSON. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			displayOptions: { show: { ...show } },
		},
		{
			displayName: 'Destination',
			name: 'destinationFields',
			type: 'resourceMapper',
			noDataExpression: true,
			default: { mappingMode: 'defineBelow', value: null },
			description: 'The account details the country requires for this destination type',
			typeOptions: {
				loadOptionsDependsOn: ['country', 'destinationType'],
				resourceMapper: {
					resourceMapperMethod: 'getDestinationFields',
					mode: 'add',
					valuesLabel: 'Destination Fields',
					fieldWords: { singular: 'field', plural: 'fields' },
					addAllFields: true,
					multiKeyMatch: false,
					supportAutoMap: false,
					noFieldsError: 'Choose a country and a destination type first, or use Raw JSON',
				},
			},
			displayOptions: { show: { ...show }, hide: { destinationType: ['json', ''] } },
		},
		{
			displayName: 'Destination (JSON)',
			name: 'destinationJson',
			type: 'json',
			required: true,
			default:
				'{\n  "type": "MOBILEMONEY",\n  "network": "",\n  "accountName": "",\n  "accountNumber": ""\n}',
			description:
				'The destination object as the API takes it, with its "type" (BANK, NUBAN, MOBILEMONEY, …). Checked for the contract’s shapes; the service checks the country’s formats.',
			displayOptions: { show: { ...show, destinationType: ['json'] } },
		},
	];
}

/** Every field of the contract's fixed shapes (BANK, NUBAN, MOBILEMONEY) is required text. */
function checkContractShape(destination: IDataObject, label: (name: string) => string): void {
	for (const name of DESTINATION_FIELDS[String(destination.type)] ?? [])
		requiredText(destination[name], label(name), 200);
}

function matches(pattern: string, value: string): boolean | undefined {
	try {
		return new RegExp(pattern).test(value);
	} catch {
		// A pattern this engine cannot read is left to the service.
		return undefined;
	}
}

/**
 * The country's rules for one destination: `const` values filled in, then each field's
 * `required`, `enum` and `pattern`. Only described fields are kept.
 */
function checkDescriptors(
	values: IDataObject,
	descriptors: FieldDescriptor[],
	where: string,
): IDataObject {
	const destination: IDataObject = {};
	for (const descriptor of descriptors) {
		const field = fieldLabel(descriptor.name);
		if (descriptor.const !== undefined) {
			destination[descriptor.name] = descriptor.const;
			continue;
		}
		const raw = values[descriptor.name];
		const value = descriptor.required
			? requiredText(raw, field, 200)
			: optionalText(raw, field, 200);
		if (value === undefined) continue;
		if (descriptor.enum && !descriptor.enum.includes(value)) {
			throw new InvalidInput(
				field,
				`"${value}" is not one of ${descriptor.enum.join(', ')}, the values ${where}`,
			);
		}
		if (descriptor.pattern && matches(descriptor.pattern, value) === false) {
			throw new InvalidInput(
				field,
				`"${value}" does not match the pattern ${descriptor.pattern}, which ${where}`,
				'The service refuses values in any other format.',
			);
		}
		destination[descriptor.name] = value;
	}
	return destination;
}

/**
 * Reads and checks the destination of one item for `country`: the form against the contract's
 * shape and the country's live descriptors, or the raw JSON against the contract's shape.
 */
export async function readDestination(
	context: IExecuteFunctions,
	itemIndex: number,
	country: string,
): Promise<IDataObject> {
	const type = requiredText(
		context.getNodeParameter('destinationType', itemIndex),
		'Destination Type',
		40,
	);
	if (type === 'json') {
		const destination = {
			...jsonObject(context.getNodeParameter('destinationJson', itemIndex), 'Destination (JSON)'),
		} as IDataObject;
		destination.type = requiredText(
			destination.type,
			'Destination (JSON) → type',
			40,
		).toUpperCase();
		// Shapes the contract does not show are passed through for the service to judge.
		checkContractShape(destination, (name) => `Destination (JSON) → ${name}`);
		return destination;
	}

	const form = context.getNodeParameter('destinationFields', itemIndex, {}) as {
		value?: IDataObject | null;
	};
	return await checkedDestination(context, country, { ...(form?.value ?? {}), type });
}

/**
 * A destination given field by field (`values.type` and its fields): checked against the
 * contract's shape, then the country's live descriptors; only described fields are kept.
 */
export async function checkedDestination(
	context: WalletContext,
	country: string,
	values: IDataObject,
): Promise<IDataObject> {
	const type = String(values.type);
	checkContractShape(values, fieldLabel);
	const requirements = await countryRequirements(context, countryCode(country, 'Country'));
	const where = `${requirements.name} (${requirements.code}) requires for ${type}`;
	return checkDescriptors(values, descriptorsFor(requirements, type), where);
}
