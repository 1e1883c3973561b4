/** The preview query and SQL of each root field (the bundle's sql/<role>/<field>.sql). */
export { previewQuery, previewSql, previewSubscriptionSql } from './preview.js';
/** Readable layout of a statement and its parameter header. */
export { formatSql, paramHeader } from '../../runtime/sql/index.js';
/** The preview mutation and SQL of each mutation root field. */
export { previewMutationQuery, previewMutationSql } from './mutation-preview.js';
/** Placeholder variable values for planning a preview operation. */
export { previewVariables } from './preview-variables.js';
/** A query collection's query compiled whole per role (the bundle's persisted plans). */
export { compileStoredQuery, type CompiledStoredQuery } from './persisted.js';
/** The dialect a table's statements are rendered in. */
export { tableDialect } from './source-dialect.js';
/** Every role's permission predicates precompiled per dialect (the bundle's templates). */
export { compileTemplates } from './templates.js';
/** Every role's root fields precompiled: source, filter, columns, row limit, aggregation switch (the bundle's root templates). */
export { compileRootTemplates, RootTemplatePool, type RoleTemplatesMemo } from './root-templates.js';
/** Every role's mutation root fields precompiled: written table, columns, presets, check and filter, returning (the bundle's mutation templates). */
export { compileMutationTemplates } from './mutation-templates.js';
