/**
 * Beneficiaries (contract 4.4): add (validated against the country's destination
 * descriptors) and cursor list.
 */
import { timestamp } from '../context';
import { readPayoutTarget } from '../countries';
import { cursorPage } from '../cursor';
import { badRequest } from '../errors';
import type { Route } from '../router';
import { BENEFICIARY_STATUSES, isBeneficiaryStatus, newId, newReference, type BeneficiaryRecord } from '../state';
import { BodyReader } from '../validation';
import { beneficiaryView } from '../views';

export const beneficiaryRoutes: Route[] = [
	{
		method: 'POST',
		path: '/api/v2/beneficiaries',
		handler: ({ body }, ctx) => {
			const reader = new BodyReader(body);
			const target = readPayoutTarget(reader);
			const customerEmail = reader.email('customerEmail') ?? '';
			const reference = reader.optionalString('reference');
			const callbackUrl = reader.httpUrl('callbackUrl', false);
			reader.done();
			const now = timestamp(ctx);
			const beneficiary: BeneficiaryRecord = {
				id: newId(),
				createdAt: now,
				updatedAt: now,
				...target!, // defined once done() passed
				status: 'SUCCESS',
				provider: 'sandbox',
				reference: reference ?? newReference('BEN'),
				customerEmail,
				callbackUrl: callbackUrl ?? null,
			};
			ctx.state.beneficiaries.push(beneficiary);
			return { message: 'Beneficiary created successfully', data: beneficiaryView(beneficiary) };
		},
	},
	{
		method: 'GET',
		path: '/api/v2/beneficiaries',
		handler: ({ query }, ctx) => {
			const status = query.status?.toUpperCase();
			if (status && !isBeneficiaryStatus(status)) {
				throw badRequest([`status must be one of ${BENEFICIARY_STATUSES.join(', ')}`]);
			}
			const currency = query.currency?.toUpperCase();
			const country = query.country?.toUpperCase();
			const q = query.q?.toLowerCase();
			const page = cursorPage(
				ctx.state.beneficiaries,
				(b) =>
					(!status || b.status === status) &&
					(!currency || b.currency === currency) &&
					(!country || b.country === country) &&
					(!q || b.reference.toLowerCase().includes(q)),
				query,
			);
			return {
				message: 'Beneficiaries retrieved successfully',
				data: { data: page.data.map(beneficiaryView), meta: page.meta },
			};
		},
	},
];
