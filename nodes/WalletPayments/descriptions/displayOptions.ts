import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

type Show = NonNullable<IDisplayOptions['show']>;

/**
 * Shows each property only for the given resource/operation, merging into any `displayOptions`
 * the property already has (a shallow spread would drop its own `show` conditions).
 */
export function showOnlyFor(show: Show, properties: INodeProperties[]): INodeProperties[] {
	return properties.map((property) => ({
		...property,
		displayOptions: {
			...property.displayOptions,
			show: { ...property.displayOptions?.show, ...show },
		},
	}));
}

export function forOperation(resource: string, operation: string, properties: INodeProperties[]) {
	return showOnlyFor({ resource: [resource], operation: [operation] }, properties);
}
