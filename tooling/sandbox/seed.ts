/**
 * Deterministic generated records (`seed` option), spaced one minute apart in the past so
 * that records created later are always newer.
 */
import type { SandboxContext } from './context';
import type { Destination } from './countries';
import { newId, type BeneficiaryRecord, type BeneficiaryStatus, type CustomerRecord } from './state';

const FIRST_NAMES = ['Ada', 'Kwame', 'Wanjiru', 'Thabo', 'Chidi', 'Amina', 'Kofi', 'Zanele', 'Tunde', 'Akosua'];
const LAST_NAMES = ['Okafor', 'Mensah', 'Kamau', 'Nkosi', 'Adeyemi', 'Boateng', 'Otieno', 'Dlamini', 'Bello', 'Asante'];

const pad = (n: number, width: number) => String(n).padStart(width, '0');

const SEED_TARGETS: Array<(i: number) => { country: string; currency: string; destination: Destination }> = [
	(i) => ({
		country: 'KE',
		currency: 'KES',
		destination: { type: 'MOBILEMONEY', network: 'MPESA', accountName: `Seed Payee ${i}`, accountNumber: `2547${pad(i, 8)}` },
	}),
	(i) => ({
		country: 'NG',
		currency: 'NGN',
		destination: { type: 'NUBAN', bankCode: '058', accountName: `Seed Payee ${i}`, accountNumber: `30${pad(i, 8)}` },
	}),
	(i) => ({
		country: 'GH',
		currency: 'GHS',
		destination: { type: 'MOBILEMONEY', network: 'MTN', accountName: `Seed Payee ${i}`, accountNumber: `024${pad(i, 7)}` },
	}),
	(i) => ({
		country: 'ZA',
		currency: 'ZAR',
		destination: {
			type: 'BANK',
			bankCode: '250655',
			bankName: 'First Sandbox Bank',
			accountName: `Seed Payee ${i}`,
			accountNumber: `62${pad(i, 8)}`,
		},
	}),
];

/** Every tenth seeded beneficiary is PROCESSING, PENDING or FAILED; the rest SUCCESS. */
function seedStatus(i: number): BeneficiaryStatus {
	const statuses: Record<number, BeneficiaryStatus> = { 7: 'PROCESSING', 8: 'PENDING', 9: 'FAILED' };
	return statuses[i % 10] ?? 'SUCCESS';
}

export function applySeed(ctx: SandboxContext): void {
	const { customers, beneficiaries } = ctx.config.seed;
	const now = ctx.config.now().getTime();
	const at = (i: number, count: number) => new Date(now - (count - i) * 60_000).toISOString();

	for (let i = 0; i < customers; i++) {
		const createdAt = at(i, customers);
		const customer: CustomerRecord = {
			id: newId(),
			createdAt,
			updatedAt: createdAt,
			firstName: FIRST_NAMES[i % FIRST_NAMES.length],
			lastName: LAST_NAMES[Math.floor(i / FIRST_NAMES.length) % LAST_NAMES.length],
			email: `customer${pad(i + 1, 4)}@example.com`,
			phone: `80${pad(i + 1, 8)}`,
			countryCode: '+234',
			blacklisted: false,
			businessName: null,
			isDefault: false,
			companyId: ctx.state.companyId,
		};
		ctx.state.customers.push(customer);
	}

	for (let i = 0; i < beneficiaries; i++) {
		const createdAt = at(i, beneficiaries);
		const beneficiary: BeneficiaryRecord = {
			id: newId(),
			createdAt,
			updatedAt: createdAt,
			...SEED_TARGETS[i % SEED_TARGETS.length](i + 1),
			status: seedStatus(i),
			provider: 'sandbox',
			reference: `BEN-SEED-${pad(i + 1, 4)}`,
			customerEmail: `customer${pad((i % Math.max(customers, 1)) + 1, 4)}@example.com`,
			callbackUrl: null,
		};
		ctx.state.beneficiaries.push(beneficiary);
	}
}
