// n8n's formatting for community nodes (the @n8n/node-cli template): tabs, print width 100.
// Applied to nodes/ and credentials/; `npm run format:check` (part of `npm test`) enforces it.
module.exports = {
	semi: true,
	trailingComma: 'all',
	bracketSpacing: true,
	useTabs: true,
	tabWidth: 2,
	arrowParens: 'always',
	singleQuote: true,
	quoteProps: 'as-needed',
	endOfLine: 'lf',
	printWidth: 100,
};
