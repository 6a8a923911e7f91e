/**
 * Every API route of the sandbox.
 */
import type { Route } from '../router';
import { beneficiaryRoutes } from './beneficiaries';
import { cardRoutes } from './cards';
import { collectionRoutes } from './collections';
import { countryRoutes } from './countries';
import { customerRoutes } from './customers';
import { payoutRoutes } from './payouts';
import { swapRoutes } from './swaps';
import { transactionRoutes } from './transactions';

export const API_ROUTES: Route[] = [
	...payoutRoutes,
	...collectionRoutes,
	...beneficiaryRoutes,
	...customerRoutes,
	...transactionRoutes,
	...swapRoutes,
	...cardRoutes,
	...countryRoutes,
];
