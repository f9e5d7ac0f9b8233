// Types of prisma-schemas.mjs (plain JavaScript, so the install-time generator needs no compiler).
export declare const POSTGRES_CLIENT_OUTPUT: string;
export declare function derivePostgresSchema(sqliteSchema: string): string;
