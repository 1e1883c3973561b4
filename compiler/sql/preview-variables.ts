import type { OperationDefinitionNode, TypeNode } from 'graphql';

const namedType = (t: TypeNode): string => (t.kind === 'NamedType' ? t.name.value : namedType(t.type));

// A value a GeoJSON argument accepts: the planner checks geometry and geography values where they
// are written (runtime/graphql/geojson.ts), so the preview's placeholder must be one.
const GEO_PLACEHOLDER = { type: 'Point', coordinates: [0, 0] };

/** The placeholder values a preview plans its operation with: 0, or a GeoJSON point for a geometry or geography variable. */
export function previewVariables(operation: OperationDefinitionNode): { [name: string]: unknown } {
  return Object.fromEntries((operation.variableDefinitions ?? []).map((d) => {
    const type = namedType(d.type);
    return [d.variable.name.value, type === 'geometry' || type === 'geography' ? GEO_PLACEHOLDER : 0];
  }));
}
