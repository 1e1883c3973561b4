// `kiln check`, part (d): the proof on the IR. Each query and mutation root field of each role is
// planned as the runtime plans it (the preview operation of its SQL file): every read of rows in
// the plan must carry the role's filter and row limit (runtime/graphql permissionGaps), and every
// write the role's update/delete filter and insert/update check (mutationGaps). Nothing is parsed back
// from SQL text, so the proof holds for whichever dialect renders the plan.

import { buildSchema, parse, type OperationDefinitionNode } from 'graphql';
import { ApiError } from '../../runtime/errors/index.js';
import { permissionGaps, planQueryIr, proveMutation } from '../../runtime/graphql/index.js';
import { previewMutationQuery, previewQuery, previewVariables, tableDialect } from '../sql/index.js';
import type { BundleDir } from './bundle-dir.js';

/** How many root-field plans were proved, and each read found without its role's permission. */
export interface IrProof {
  readonly checked: number;
  readonly problems: readonly string[];
}

/** Proves the plan of every query and mutation root field of every role of the bundle on its IR. */
export function proveOnIr(b: BundleDir): IrProof {
  const problems: string[] = [];
  let checked = 0;
  for (const role of b.model.roles) {
    const sdl = b.files.get(`schema/${role}.graphql`);
    if (sdl === undefined) continue;
    const schema = buildSchema(sdl);
    for (const [field, root] of Object.entries(b.model.roots[role]?.query ?? {}).sort(([x], [y]) => x.localeCompare(y))) {
      const document = parse(previewQuery(b.model, role, field, root));
      const operation = document.definitions[0] as OperationDefinitionNode;
      const variables = previewVariables(operation);
      try {
        const ir = planQueryIr({ model: b.model, schema, role, dialect: tableDialect(b.model, root.table), stringifyNumeric: b.model.options.stringifyNumeric,
          document, operation, variables, structural: new Set() });
        if (ir.kind !== 'steps') continue;
        checked++;
        for (const gap of permissionGaps(ir.plan.steps.flatMap((s) => s.fields.map((f) => f.value)), ir.ctx)) problems.push(`${role}/${field}: ${gap}`);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        problems.push(`${role}/${field}: does not plan: ${e.message}`);
      }
    }
    for (const [field, root] of Object.entries(b.model.roots[role]?.mutation ?? {}).sort(([x], [y]) => x.localeCompare(y))) {
      const document = parse(previewMutationQuery(b.model, role, field, root));
      const operation = document.definitions[0] as OperationDefinitionNode;
      const variables = previewVariables(operation);
      try {
        const proof = proveMutation({ model: b.model, schema, role, dialect: tableDialect(b.model, root.table), stringifyNumeric: b.model.options.stringifyNumeric,
          document, operation, variables, structural: new Set() });
        checked++;
        for (const gap of proof.gaps) problems.push(`${role}/${field}: ${gap}`);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        problems.push(`${role}/${field}: does not plan: ${e.message}`);
      }
    }
  }
  return { checked, problems };
}
