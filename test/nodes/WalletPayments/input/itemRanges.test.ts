import { itemRanges } from '../../../../nodes/WalletPayments/input/itemRanges';

test('item indexes as ranges: sorted, repeats once, runs joined', () => {
	expect(itemRanges([45, 0, 1, 2, 43, 46, 47, 2])).toBe('0–2, 43, 45–47');
	expect(itemRanges([7])).toBe('7');
	expect(itemRanges([])).toBe('');
});
