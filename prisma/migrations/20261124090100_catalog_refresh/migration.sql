-- CreateTable
CREATE TABLE "catalog_refreshes" (
    "source" TEXT NOT NULL PRIMARY KEY,
    "etag" TEXT,
    "last_modified" TEXT,
    "checked_at" DATETIME,
    "refreshed_at" DATETIME,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "error" TEXT
);
