import { maskCardDetails } from '../../../../nodes/WalletPayments/output/cardMasking';

test('card numbers keep their last four digits and CVVs become ***, at any depth; a copy', () => {
	const card = { id: 'card_1', cardNumber: '5399 8383 8383 8381', cvv: '123', holder: { pan: 4111111111111111, cvc: 987 } };
	const masked = maskCardDetails({ data: [card], cvv2: '' });
	expect(masked).toEqual({
		data: [{ id: 'card_1', cardNumber: '************8381', cvv: '***', holder: { pan: '************1111', cvc: '***' } }],
		cvv2: '',
	});
	expect(card.cardNumber).toBe('5399 8383 8383 8381');
});

test('short or empty values: nothing of a 4-digit number shows; empty stays empty; reveal changes nothing', () => {
	expect(maskCardDetails({ cardNumber: '1234', cvv: null, pan: '' })).toEqual({ cardNumber: '****', cvv: null, pan: '' });
	const card = { cardNumber: '5399838383838381', cvv: '123' };
	expect(maskCardDetails(card, true)).toBe(card);
});
