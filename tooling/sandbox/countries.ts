/**
 * Payout countries: their destination requirement descriptors (served by the
 * country-requirement endpoint) and the one destination validator used by both
 * Add beneficiary and the inline beneficiary of a payout.
 */
import { BodyReader } from './validation';

export interface FieldDescriptor {
	name: string;
	type: 'string';
	required: boolean;
	const?: string;
	enum?: string[];
	pattern?: string;
}

export interface Country {
	code: string;
	name: string;
	flag: string;
	dialCode: string;
	currency: string;
	/** Keyed by destination type. */
	destination: Record<string, FieldDescriptor[]>;
}

/** A destination object (contract 2.3): only the described fields are kept. */
export type Destination = Record<string, string>;

const text = (name: string, extra: Partial<FieldDescriptor> = {}): FieldDescriptor => ({
	name,
	type: 'string',
	required: true,
	...extra,
});
const typeField = (type: string) => text('type', { const: type });

export const COUNTRIES: Country[] = [
	{
		code: 'KE',
		name: 'Kenya',
		flag: '🇰🇪',
		dialCode: '+254',
		currency: 'KES',
		destination: {
			MOBILEMONEY: [
				typeField('MOBILEMONEY'),
				text('network', { enum: ['MPESA'] }),
				text('accountName'),
				text('accountNumber', { pattern: '^2547[\\d]{8}$' }),
			],
		},
	},
	{
		code: 'NG',
		name: 'Nigeria',
		flag: '🇳🇬',
		dialCode: '+234',
		currency: 'NGN',
		destination: {
			NUBAN: [
				typeField('NUBAN'),
				text('bankCode'),
				text('accountName'),
				text('accountNumber', { pattern: '^\\d{10}$' }),
			],
		},
	},
	{
		code: 'GH',
		name: 'Ghana',
		flag: '🇬🇭',
		dialCode: '+233',
		currency: 'GHS',
		destination: {
			BANK: [
				typeField('BANK'),
				text('bankCode'),
				text('bankName'),
				text('accountName'),
				text('accountNumber', { pattern: '^\\d{10,16}$' }),
			],
			MOBILEMONEY: [
				typeField('MOBILEMONEY'),
				text('network', { enum: ['MTN', 'VODAFONE', 'AIRTELTIGO'] }),
				text('accountName'),
				text('accountNumber', { pattern: '^0\\d{9}$' }),
			],
		},
	},
	{
		code: 'ZA',
		name: 'South Africa',
		flag: '🇿🇦',
		dialCode: '+27',
		currency: 'ZAR',
		destination: {
			BANK: [
				typeField('BANK'),
				text('bankCode'),
				text('bankName'),
				text('accountName'),
				text('accountNumber', { pattern: '^\\d{6,12}$' }),
			],
		},
	},
];

export function findCountry(code: string): Country | undefined {
	const wanted = code.trim().toUpperCase();
	return COUNTRIES.find((country) => country.code === wanted);
}

export const unsupportedCountry = (code: string) => `Country ${code.toUpperCase()} is not supported`;

/** Checks one field against its descriptor; returns the message for the first rule broken. */
function checkField(descriptor: FieldDescriptor, value: unknown, label: string): string | undefined {
	if (value === undefined || value === null || value === '') {
		return descriptor.required ? `${label} is required` : undefined;
	}
	if (typeof value !== 'string') return `${label} must be a string`;
	if (descriptor.const !== undefined && value !== descriptor.const) {
		return `${label} must be ${descriptor.const}`;
	}
	if (descriptor.enum && !descriptor.enum.includes(value)) {
		return `${label} must be one of ${descriptor.enum.join(', ')}`;
	}
	if (descriptor.pattern && !new RegExp(descriptor.pattern).test(value)) {
		return `${label} must match ${descriptor.pattern}`;
	}
	return undefined;
}

/**
 * Validates `parent[field]` (a destination object) against the country's descriptors,
 * adding messages such as `destination.accountNumber must match ^2547[\d]{8}$` to the reader.
 */
export function readDestination(
	parent: BodyReader,
	country: Country,
	field = 'destination',
): Destination | undefined {
	const body = parent.object(field, true);
	if (!body) return undefined;
	const reader = parent.nested(body, field);
	const types = Object.keys(country.destination);
	const type = body.type;
	if (typeof type !== 'string' || !types.includes(type)) {
		reader.fail(
			type === undefined || type === null || type === ''
				? `${reader.name('type')} is required`
				: `${reader.name('type')} must be one of ${types.join(', ')}`,
		);
		return undefined;
	}
	const destination: Destination = {};
	let valid = true;
	for (const descriptor of country.destination[type]) {
		const value = body[descriptor.name];
		const problem = checkField(descriptor, value, reader.name(descriptor.name));
		if (problem) {
			reader.fail(problem);
			valid = false;
		} else if (typeof value === 'string') {
			destination[descriptor.name] = value;
		}
	}
	return valid ? destination : undefined;
}

export interface PayoutTarget {
	country: string;
	currency: string;
	destination: Destination;
}

/**
 * Reads `country`, `currency` and `destination` (Add beneficiary, or a payout's inline
 * beneficiary): the country must be supported and the currency must be the country's.
 */
export function readPayoutTarget(reader: BodyReader): PayoutTarget | undefined {
	const countryCode = reader.requiredString('country');
	const currency = reader.requiredString('currency').toUpperCase();
	if (!countryCode) {
		reader.object('destination', true);
		return undefined;
	}
	const country = findCountry(countryCode);
	if (!country) {
		reader.fail(unsupportedCountry(countryCode));
		return undefined;
	}
	if (currency && currency !== country.currency) {
		reader.fail(`${reader.name('currency')} must be ${country.currency} for country ${country.code}`);
	}
	const destination = readDestination(reader, country);
	if (!destination || !currency || currency !== country.currency) return undefined;
	return { country: country.code, currency, destination };
}

/** The country-requirement response (contract 4.9). */
export function countryRequirementView(country: Country) {
	return {
		code: country.code,
		name: country.name,
		flag: country.flag,
		dialCode: country.dialCode,
		destination: country.destination,
	};
}
