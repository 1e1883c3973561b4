/** Any JSON value. */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
