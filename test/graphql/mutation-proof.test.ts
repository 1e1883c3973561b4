// The proof on the IR for mutations (runtime/graphql mutation-proof.ts): the plan of every
// mutation root field of every role of the blog and chinook fixtures carries the role's update and
// delete filters and insert and update checks, and the proof finds each one taken out of a plan.
import { parse, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { previewMutationQuery } from '../../compiler/sql/index.js';
import { ApiError } from '../../runtime/errors/index.js';
import { mutationGaps, planMutation, proveMutation, type PlanContext, type PlanInput } from '../../runtime/graphql/index.js';
import { postgres, type MutationStatement, type Write } from '../../runtime/sql/index.js';
import { compileFixture } from '../helpers/fixtures.js';

type Bundle = Awaited<ReturnType<typeof compileFixture>>;

function input(bundle: Bundle, role: string, query: string, variables: Record<string, unknown> = {}): PlanInput {
  const document = parse(query);
  const operation = document.definitions.find((d) => d.kind === 'OperationDefinition') as OperationDefinitionNode;
  return { model: bundle.model, schema: bundle.schemas[role]!, role, dialect: postgres, stringifyNumeric: false, document, operation, variables, structural: new Set() };
}

for (const fixture of ['blog', 'chinook']) {
  describe(`mutation proof on the IR · ${fixture}`, async () => {
    const bundle = await compileFixture(fixture);
    it('every mutation root field of every role carries its filters and checks', () => {
      let proved = 0;
      for (const role of bundle.model.roles) {
        for (const [field, root] of Object.entries(bundle.model.roots[role]?.mutation ?? {})) {
          const text = previewMutationQuery(bundle.model, role, field, root);
          const op = parse(text).definitions[0] as OperationDefinitionNode;
          const variables = Object.fromEntries((op.variableDefinitions ?? []).map((d) => [d.variable.name.value, 0]));
          const proof = proveMutation(input(bundle, role, text, variables));
          expect(proof.gaps, `${role}/${field}: ${text}`).toEqual([]);
          expect(proof.statements).toBe(1);
          proved++;
        }
      }
      expect(proved).toBeGreaterThan(20);
    });
  });
}

describe('mutation proof on the IR finds what is missing', async () => {
  const bundle = await compileFixture('blog');
  const planned = (role: string, query: string): { ir: MutationStatement; ctx: PlanContext } => {
    const i = input(bundle, role, query);
    const f = planMutation(i).fields[0]!;
    if (f.kind !== 'sql' || !f.statements[0]!.ir) throw new Error('expected a statement');
    return { ir: f.statements[0]!.ir, ctx: { ...i, fragments: new Map(), hints: { valueSensitive: false } } };
  };
  const withWrite = (m: MutationStatement, change: (w: Write) => Write): MutationStatement => ({ ...m, writes: m.writes.map(change) });

  it('an update without the role\'s update filter, and an updated row no longer checked', () => {
    const { ir, ctx } = planned('user', 'mutation { update_article(where: {id: {_eq: 1}}, _set: {title: "t"}) { affected_rows returning { id author { name } } } }');
    expect(mutationGaps(ir, ctx)).toEqual([]);
    const unfiltered = withWrite(ir, (w) => (w.body.kind === 'update' ? { ...w, body: { ...w.body, permission: { kind: 'true' } } } : w));
    expect(mutationGaps(unfiltered, ctx)).toEqual(["default:public.article: the update is not filtered by the role's update filter"]);
    expect(mutationGaps({ ...ir, guards: [] }, ctx)).toEqual(['default:public.article: an updated row is not checked by the update check']);
    // The selector is the client's, not a permission: moving the filter there does not count.
    const moved = withWrite(ir, (w) => (w.body.kind === 'update' ? { ...w, body: { ...w.body, permission: { kind: 'true' }, selector: { kind: 'and', items: [w.body.permission, w.body.selector] } } } : w));
    expect(mutationGaps(moved, ctx)).toEqual(["default:public.article: the update is not filtered by the role's update filter"]);
    // A read in `returning` (the author relationship) whose select permission was taken out.
    let dropped = 0;
    const strip = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(strip);
      if (!v || typeof v !== 'object' || v.constructor !== Object) return v;
      const o = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, strip(x)]));
      if (o['kind'] === 'one') { dropped++; return { ...o, permission: { filter: { kind: 'true' }, limit: null } }; }
      return o;
    };
    const readAll = { ...ir, result: strip(ir.result) as MutationStatement['result'] };
    expect(dropped).toBe(1);
    expect(mutationGaps(readAll, ctx)).toEqual(["default:public.author: the permission node is not the role's filter"]);
  });

  it('an insert whose check guard was dropped or weakened', () => {
    const { ir, ctx } = planned('user', 'mutation { insert_article(objects: [{title: "t"}]) { affected_rows } }');
    expect(ir.guards.length).toBeGreaterThan(0);
    expect(mutationGaps(ir, ctx)).toEqual([]);
    expect(mutationGaps({ ...ir, guards: [] }, ctx)).toEqual(['default:public.article: an inserted row is not checked by the insert check']);
    const weakened = { ...ir, guards: ir.guards.map((g) => (g.kind === 'all_rows' ? { ...g, check: { kind: 'true' as const } } : g)) };
    expect(mutationGaps(weakened, ctx)).toEqual(['default:public.article: an inserted row is not checked by the insert check']);
  });

  it('a delete without its filter, and a write by a role without the permission', () => {
    const { ir, ctx } = planned('user', 'mutation { delete_article_by_pk(id: 1) { id } }');
    expect(mutationGaps(ir, ctx)).toEqual([]);
    // The bundle's template of the delete filter is in the plan; one part of it taken out is found.
    expect(ir.writes.some((w) => w.body.kind === 'delete' && w.body.permission.kind === 'template')).toBe(true);
    const unfiltered = withWrite(ir, (w) => {
      if (w.body.kind !== 'delete' || w.body.permission.kind !== 'template') return w;
      const t = w.body.permission.template;
      const weaker = { ...t, text: [...t.text.slice(0, -1), `${t.text.at(-1)!} OR true`] };
      return { ...w, body: { ...w.body, permission: { ...w.body.permission, template: weaker } } };
    });
    expect(mutationGaps(unfiltered, ctx)).toEqual(["default:public.article: the delete is not filtered by the role's delete filter"]);
    const dropped = withWrite(ir, (w) => (w.body.kind === 'delete' ? { ...w, body: { ...w.body, permission: { kind: 'true' } } } : w));
    expect(mutationGaps(dropped, ctx)).toEqual(["default:public.article: the delete is not filtered by the role's delete filter"]);
  });

  it('a role without the permission is refused by the planner and found by the proof', () => {
    expect(() => planned('reader', 'mutation { delete_article(where: {}) { affected_rows } }')).toThrow(ApiError);
    const { ir, ctx } = planned('user', 'mutation { delete_article(where: {}) { affected_rows } }');
    expect(mutationGaps(ir, { ...ctx, role: 'reader' })).toEqual(['default:public.article: role "reader" has no delete permission']);
  });
});
