/**
 * Country requirement (contract 4.9).
 */
import { countryRequirementView, findCountry, unsupportedCountry } from '../countries';
import { ApiError } from '../errors';
import type { Route } from '../router';

export const countryRoutes: Route[] = [
	{
		method: 'GET',
		path: '/api/v1/wallets/payout/supported-countries/:countryCode',
		handler: ({ params }) => {
			const country = findCountry(params.countryCode);
			if (!country) throw new ApiError(404, unsupportedCountry(params.countryCode));
			return { message: 'Country requirements retrieved successfully', data: countryRequirementView(country) };
		},
	},
];
