/**
 * Customers (contract 4.5): create, update, cursor list.
 */
import { timestamp, type SandboxContext } from '../context';
import { cursorPage } from '../cursor';
import { conflict } from '../errors';
import type { Route } from '../router';
import { findById, newId, type CustomerRecord } from '../state';
import { BodyReader } from '../validation';
import { customerView } from '../views';

const DIAL_CODE = /^\+?\d{1,4}$/;
const PHONE = /^\+?[\d\s()-]{4,20}$/;

/** Dial code with a leading plus, whether or not it was sent with one. */
function readCountryCode(reader: BodyReader): string | undefined {
	const value = reader.optionalString('countryCode');
	if (value === undefined) return undefined;
	if (!DIAL_CODE.test(value)) {
		reader.fail('countryCode must be a dial code such as +234 or 234');
		return undefined;
	}
	return value.startsWith('+') ? value : `+${value}`;
}

function readPhone(reader: BodyReader): string | undefined {
	const value = reader.optionalString('phone');
	if (value !== undefined && !PHONE.test(value)) reader.fail('phone must be a phone number');
	return value;
}

function assertEmailFree(ctx: SandboxContext, email: string, exceptId?: string): void {
	const taken = ctx.state.customers.some((c) => c.id !== exceptId && c.email.toLowerCase() === email);
	if (taken) throw conflict(`Customer with email ${email} already exists`);
}

const includes = (value: string | null, wanted: string | undefined) =>
	wanted === undefined || wanted === '' || (value ?? '').toLowerCase().includes(wanted.toLowerCase());

export const customerRoutes: Route[] = [
	{
		method: 'POST',
		path: '/api/v2/customers',
		handler: ({ body }, ctx) => {
			const reader = new BodyReader(body);
			const firstName = reader.requiredString('firstName');
			const lastName = reader.requiredString('lastName');
			const email = reader.email('email') ?? '';
			const phone = readPhone(reader);
			const countryCode = readCountryCode(reader);
			reader.done();
			assertEmailFree(ctx, email);
			const now = timestamp(ctx);
			const customer: CustomerRecord = {
				id: newId(),
				createdAt: now,
				updatedAt: now,
				firstName,
				lastName,
				email,
				phone: phone ?? null,
				countryCode: countryCode ?? null,
				blacklisted: false,
				businessName: null,
				isDefault: false,
				companyId: ctx.state.companyId,
			};
			ctx.state.customers.push(customer);
			return { message: 'Customer created successfully', data: customerView(customer) };
		},
	},
	{
		method: 'PUT',
		path: '/api/v2/customers/:customerId',
		handler: ({ params, body }, ctx) => {
			const reader = new BodyReader(body);
			const email = reader.email('email') ?? '';
			const firstName = reader.optionalString('firstName');
			const lastName = reader.optionalString('lastName');
			const phone = readPhone(reader);
			const countryCode = readCountryCode(reader);
			reader.done();
			const customer = findById(ctx.state.customers, params.customerId, 'Customer');
			assertEmailFree(ctx, email, customer.id);
			Object.assign(customer, {
				email,
				...(firstName !== undefined && { firstName }),
				...(lastName !== undefined && { lastName }),
				...(phone !== undefined && { phone }),
				...(countryCode !== undefined && { countryCode }),
				updatedAt: timestamp(ctx),
			});
			return { message: 'Customer updated successfully', data: customerView(customer) };
		},
	},
	{
		method: 'GET',
		path: '/api/v2/customers',
		handler: ({ query }, ctx) => {
			const page = cursorPage(
				ctx.state.customers,
				(c) =>
					includes(c.firstName, query.firstName) &&
					includes(c.lastName, query.lastName) &&
					includes(c.email, query.email) &&
					includes(c.phone, query.phone),
				query,
			);
			return {
				message: 'Customers retrieved successfully',
				data: { data: page.data.map(customerView), meta: page.meta },
			};
		},
	},
];
