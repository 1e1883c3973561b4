// The proof on the IR that every read carries the role's permission (runtime/graphql
// permission-proof.ts): it holds for every plan of thousands of generated queries on the blog and
// chinook fixtures, for every role, and it finds a filter or a row limit taken out of a plan.
import { parse, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../runtime/errors/index.js';
import { permissionGaps, planQueryIr, type QueryIr } from '../../runtime/graphql/index.js';
import { postgres, type JsonValue, type ListSelect } from '../../runtime/sql/index.js';
import { compileFixture } from '../helpers/fixtures.js';
import { generateQuery, type GenConfig } from '../fuzz/gen.js';

type Bundle = Awaited<ReturnType<typeof compileFixture>>;

function plan(bundle: Bundle, role: string, query: string, variables: Record<string, unknown> = {}): QueryIr {
  const document = parse(query);
  const operation = document.definitions.find((d) => d.kind === 'OperationDefinition') as OperationDefinitionNode;
  return planQueryIr({ model: bundle.model, schema: bundle.schemas[role]!, role, dialect: postgres, stringifyNumeric: false,
    document, operation, variables, structural: new Set() });
}

function valuesOf(ir: QueryIr): JsonValue[] {
  return ir.kind === 'steps' ? ir.plan.steps.flatMap((s) => s.fields.map((f) => f.value)) : [];
}

for (const fixture of ['blog', 'chinook']) {
  describe(`permission proof on the IR · ${fixture}`, async () => {
    const bundle = await compileFixture(fixture);
    for (const role of bundle.model.roles) {
      it(`every read of 150 generated queries carries ${role}'s filter and limit`, () => {
        const limits = bundle.model.select[role] ?? {};
        const cfg: GenConfig = { schema: bundle.schemas[role]!, samples: () => [],
          permLimit: (typeName) => limits[Object.values(bundle.model.tables).find((t) => t.typeName === typeName)?.id ?? '']?.limit ?? null,
          mustSelect: () => [], limitChance: { root: 0.5, nested: 0.3 }, nestedAggregateOrder: true };
        let proved = 0;
        for (let seed = 1; seed <= 150; seed++) {
          const q = generateQuery(seed, cfg);
          let ir: QueryIr;
          try { ir = plan(bundle, role, q.query, q.variables); } catch (e) { if (e instanceof ApiError) continue; throw e; }
          if (ir.kind !== 'steps') continue;
          expect(permissionGaps(valuesOf(ir), ir.ctx), `${role} seed ${seed}: ${q.query}`).toEqual([]);
          proved++;
        }
        expect(proved).toBeGreaterThan(100);
      });
    }
  });
}

describe('permission proof on the IR finds what is missing', async () => {
  const bundle = await compileFixture('blog');

  it('a list whose filter or row limit was taken out', () => {
    const ir = plan(bundle, 'reader', '{ article { id author { name } } }');
    expect(ir.kind).toBe('steps');
    if (ir.kind !== 'steps') return;
    expect(permissionGaps(valuesOf(ir), ir.ctx)).toEqual([]);
    const list = valuesOf(ir)[0] as ListSelect;
    const noFilter: ListSelect = { ...list, rows: { ...list.rows, permission: { ...list.rows.permission, filter: { kind: 'true' } } } };
    expect(permissionGaps([noFilter], ir.ctx)).toEqual(["default:public.article: the permission node is not the role's filter"]);
    const noLimit: ListSelect = { ...list, rows: { ...list.rows, permission: { ...list.rows.permission, limit: null } } };
    expect(permissionGaps([noLimit], ir.ctx)).toEqual(['default:public.article: row limit null instead of 2']);
  });

  it('a relationship filter whose target permission was taken out', () => {
    const ir = plan(bundle, 'reader', '{ article(where: {article_tags: {tag_id: {_eq: 1}}}) { id } }');
    if (ir.kind !== 'steps') throw new Error('expected SQL steps');
    expect(permissionGaps(valuesOf(ir), ir.ctx)).toEqual([]);
    // Take the permission out of every EXISTS of the plan.
    let dropped = 0;
    const strip = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(strip);
      if (v && typeof v === 'object' && v.constructor === Object) {
        const o = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, strip(x)]));
        if (o['kind'] === 'exists' && o['permission']) { dropped++; return { ...o, permission: null }; }
        return o;
      }
      return v;
    };
    const stripped = strip(valuesOf(ir)[0]) as JsonValue;
    expect(dropped).toBe(1);
    expect(permissionGaps([stripped], ir.ctx)).toEqual(['default:content.article_tag: no permission on the rows read']);
  });
});
