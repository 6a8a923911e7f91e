import type { IDataObject, NodeApiError } from 'n8n-workflow';

import { useSandbox } from '../../../helpers/sandbox/sandbox';
import { expectInvalid, expectRequests, outputJson } from '../../../helpers/sandbox/operations';
import { idLocator } from '../../../helpers/sandbox/walletOperations';

const fixture = useSandbox();

/** n8n itself refuses an empty required parameter; an expression can still give a blank value. */
const BLANK = '={{ $json.missing ?? "" }}';

const CREATE = { resource: 'customer', operation: 'create', firstName: 'Ann', lastName: 'Doe', email: 'ann@example.com' };

function customerOutput(index: number) {
	return { ...fixture.sandbox.state.customers[index] };
}

async function addCustomers(people: Array<{ first: string; email: string; phone?: string }>) {
	const result = await fixture.run(
		{ ...CREATE, firstName: '={{ $json.first }}', email: '={{ $json.email }}', additionalFields: { phone: '={{ $json.phone }}' } },
		{ items: people },
	);
	expect(result.error).toBeUndefined();
	fixture.sandbox.clearRequests();
}

describe('Customer → Create', () => {
	test('sends the required fields only when nothing else is given', async () => {
		const result = await fixture.run(CREATE);
		expectRequests(fixture, [
			{ method: 'POST', path: '/api/v2/customers', body: { firstName: 'Ann', lastName: 'Doe', email: 'ann@example.com' } },
		]);
		expect(outputJson(result)).toEqual([customerOutput(0)]);
		expect(result.items[0].json).toMatchObject({ phone: null, countryCode: null, blacklisted: false });
	});

	test('sends phone and dial code, trimmed', async () => {
		const result = await fixture.run({
			...CREATE,
			firstName: '  Ann ',
			additionalFields: { phone: '712345678', countryCode: '254' },
		});
		expectRequests(fixture, [
			{
				method: 'POST',
				path: '/api/v2/customers',
				body: { firstName: 'Ann', lastName: 'Doe', email: 'ann@example.com', phone: '712345678', countryCode: '254' },
			},
		]);
		expect(outputJson(result)).toEqual([customerOutput(0)]);
		expect(result.items[0].json.countryCode).toBe('+254');
	});

	test('a second customer with the same email is refused by the service (409)', async () => {
		await fixture.run(CREATE);
		const result = await fixture.run(CREATE);
		const error = result.error as NodeApiError;
		expect(error.name).toBe('NodeApiError');
		expect(error.message).toBe('Customer with email ann@example.com already exists [HTTP 409]');
		expect(error.httpCode).toBe('409');
	});

	const cases: Array<[string, IDataObject, string, string]> = [
		['blank first name', { firstName: BLANK }, 'First Name', 'is required and cannot be blank'],
		['blank last name', { lastName: '  ' }, 'Last Name', 'is required and cannot be blank'],
		['blank email', { email: BLANK }, 'Email', 'is required and cannot be blank'],
		['malformed email', { email: 'ann@example' }, 'Email', '"ann@example" does not look like an email address'],
		['a phone over 32 characters', { additionalFields: { phone: '1'.repeat(33) } }, 'Phone', 'is 33 characters long; the maximum is 32'],
		['a dial code over 8 characters', { additionalFields: { countryCode: '+123456789' } }, 'Country Dial Code', 'the maximum is 8'],
		['a first name that is an object', { firstName: '={{ { a: 1 } }}' }, 'First Name', 'must be text, but the value is an object'],
	];
	test.each(cases)('refuses %s before sending', async (_name, overrides, field, problem) => {
		await expectInvalid(fixture, { ...CREATE, ...overrides }, field, problem);
	});
});

describe('Customer → Update', () => {
	test('PUTs the email and only the fields given to the customer’s path', async () => {
		await addCustomers([{ first: 'Ann', email: 'ann@example.com' }]);
		const id = fixture.sandbox.state.customers[0].id;

		const result = await fixture.run({
			resource: 'customer',
			operation: 'update',
			customerId: idLocator(id),
			email: 'ann.doe@example.com',
			updateFields: { lastName: 'Smith', phone: '712000111' },
		});
		expectRequests(fixture, [
			{
				method: 'PUT',
				path: `/api/v2/customers/${id}`,
				body: { email: 'ann.doe@example.com', lastName: 'Smith', phone: '712000111' },
			},
		]);
		expect(outputJson(result)).toEqual([customerOutput(0)]);
		expect(result.items[0].json).toMatchObject({ firstName: 'Ann', lastName: 'Smith', email: 'ann.doe@example.com' });
	});

	test('an unknown customer ID is a 404 NodeApiError', async () => {
		const result = await fixture.run({ resource: 'customer', operation: 'update', customerId: idLocator('nobody'), email: 'a@b.co' });
		const error = result.error as NodeApiError;
		expect(error.message).toBe('Customer not found [HTTP 404]');
		expect(error.httpCode).toBe('404');
		expect(fixture.apiRequests().map((r) => r.path)).toEqual(['/api/v2/customers/nobody']);
	});

	const UPDATE = { resource: 'customer', operation: 'update', customerId: idLocator('c-1'), email: 'ann@example.com' };
	const cases: Array<[string, IDataObject, string, string]> = [
		['blank customer ID', { customerId: idLocator(BLANK) }, 'Customer ID', 'is required and cannot be blank'],
		['malformed email', { email: 'nope' }, 'Email', '"nope" does not look like an email address'],
		['a last name over 100 characters', { updateFields: { lastName: 'x'.repeat(101) } }, 'Last Name', 'the maximum is 100'],
	];
	test.each(cases)('refuses %s before sending', async (_name, overrides, field, problem) => {
		await expectInvalid(fixture, { ...UPDATE, ...overrides }, field, problem);
	});
});

describe('Customer → Get Many', () => {
	test('sends every filter and outputs the matching customers, newest first', async () => {
		await addCustomers([
			{ first: 'Ann', email: 'ann@example.com', phone: '700000001' },
			{ first: 'Anna', email: 'anna@example.com', phone: '700000002' },
			{ first: 'Bob', email: 'bob@example.com', phone: '700000003' },
		]);
		const result = await fixture.run({
			resource: 'customer',
			operation: 'getAll',
			returnAll: true,
			simplify: false,
			filters: { firstName: 'Ann', lastName: 'Doe', email: 'example.com', phone: '7000000' },
		});
		expectRequests(fixture, [
			{
				method: 'GET',
				path: '/api/v2/customers',
				query: { email: 'example.com', firstName: 'Ann', lastName: 'Doe', phone: '7000000', limit: '100' },
			},
		]);
		expect(outputJson(result)).toEqual([customerOutput(1), customerOutput(0)]);
	});

	test('a limit asks for that many', async () => {
		await addCustomers([
			{ first: 'Ann', email: 'ann@example.com' },
			{ first: 'Bob', email: 'bob@example.com' },
		]);
		const result = await fixture.run({ resource: 'customer', operation: 'getAll', limit: 1, simplify: false });
		expectRequests(fixture, [{ method: 'GET', path: '/api/v2/customers', query: { limit: '1' } }]);
		expect(outputJson(result)).toEqual([customerOutput(1)]);
	});

	const cases: Array<[string, IDataObject, string, string]> = [
		['limit 0', { limit: 0 }, 'Limit', 'must be a whole number from 1'],
		['a limit that is text', { limit: '={{ "many" }}' }, 'Limit', 'must be a number, but the value is the text "many"'],
		['an email filter over 254 characters', { filters: { email: 'e'.repeat(255) } }, 'Email', 'the maximum is 254'],
	];
	test.each(cases)('refuses %s before sending', async (_name, overrides, field, problem) => {
		await expectInvalid(fixture, { resource: 'customer', operation: 'getAll', ...overrides }, field, problem);
	});
});
