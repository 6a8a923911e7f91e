/** "0–41, 43, 45–47": item indexes as ranges, for errors that name many items. */
export function itemRanges(indexes: number[]): string {
	const sorted = [...new Set(indexes)].sort((a, b) => a - b);
	const ranges: string[] = [];
	for (let i = 0; i < sorted.length; i++) {
		let j = i;
		while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
		ranges.push(i === j ? String(sorted[i]) : `${sorted[i]}–${sorted[j]}`);
		i = j;
	}
	return ranges.join(', ');
}
