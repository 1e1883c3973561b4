/** The preview query and SQL of each root field (the bundle's sql/<role>/<field>.sql). */
export { previewQuery, previewSql, previewSubscriptionSql } from './preview.js';
/** Readable layout of a statement and its parameter header. */
export { formatSql, paramHeader } from './format.js';
/** The preview mutation and SQL of each mutation root field. */
export { previewMutationQuery, previewMutationSql } from './mutation-preview.js';
